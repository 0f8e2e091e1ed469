"""``memfmt validate`` accepts every memfmt store memconv writes: converted, unedited or edited.

(The golden stores' outputs are validated in test_memfmt_golden_stores.py.)
"""

from __future__ import annotations

import shutil
from pathlib import Path

import memfmt
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memconv.cli import main
from memconv.dialects import memfmt as dialect
from memconv.dialects.memfmt.syntax import file_stem as slug
from memconv.fs import write_tree
from memconv.model import Edge, Knowledge, Step

from .memfmt_oracle import date, from_library, validate

FULL = Path(__file__).resolve().parent.parent / "golden" / "memfmt" / "full" / "input"
DAY = "2026-08-02"

#: Text memfmt reads back as it wrote it: words and inner punctuation, no grammar characters.
word = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9,.'!?]{0,8}", fullmatch=True)
text = st.lists(word, min_size=1, max_size=4).map(" ".join)
paragraphs = st.lists(text, min_size=1, max_size=3).map("\n\n".join)
extras = st.dictionaries(st.sampled_from(["owner", "source", "tags"]), text | st.lists(text, min_size=1, max_size=2),
                         max_size=2)

entities = st.builds(memfmt.Entity, name=text, entity_type=st.none() | text, id=st.none() | word,
                     facts=st.lists(text, max_size=3),
                     relations=st.lists(st.builds(memfmt.Relation, type=text, target=text,
                                                  direction=st.sampled_from(["outgoing", "incoming"]),
                                                  detail=st.none() | text), max_size=2),
                     knowledge=st.lists(st.builds(memfmt.Knowledge, type=word, title=text, content=text,
                                                  artifact=st.none() | paragraphs), max_size=2),
                     extra=extras)
episodes = st.builds(memfmt.Episode, summary=text, id=st.none() | word, happened=st.none() | date,
                     outcome=st.none() | text, valence=st.none() | word, importance=st.none() | st.integers(0, 5),
                     participants=st.lists(text, max_size=2), context=st.none() | paragraphs, extra=extras)
# No step asks for anything: validate also rejects chains that do not join (a property of the procedure).
steps = st.builds(memfmt.Step, action=text, detail=st.none() | text, success_count=st.none() | st.integers(0, 9),
                  fail_count=st.none() | st.integers(0, 9), needs=st.just([]),
                  # a slot name with a comma is two names to memfmt: slots are comma-separated
                  gives=st.lists(st.from_regex(r"[A-Za-z0-9]{1,8}", fullmatch=True), max_size=2))
procedures = st.builds(memfmt.Procedure, name=text, id=st.none() | word, version=st.integers(1, 5),
                       success_count=st.integers(0, 20), fail_count=st.integers(0, 20), trigger=st.none() | text,
                       preconditions=st.lists(text, max_size=2), steps=st.lists(steps, max_size=3),
                       evolution=st.lists(st.builds(memfmt.Revision, version_before=st.integers(1, 4),
                                                    version_after=st.integers(2, 5), reason=text,
                                                    date=st.none() | date,
                                                    success_count=st.none() | st.integers(0, 9),
                                                    fail_count=st.none() | st.integers(0, 9)), max_size=2),
                       last_failure=st.none() | text, last_failed=st.none() | date,
                       last_succeeded=st.none() | date, extra=extras)
memories = st.builds(
    memfmt.Memory,
    # memfmt cannot validate numbered collisions (test_memfmt_bad_input.py shows it on its own output).
    entities=st.lists(entities, max_size=4, unique_by=lambda e: slug(e.name)),
    episodes=st.lists(episodes, max_size=3, unique_by=lambda e: (e.happened, slug(e.summary))),
    procedures=st.lists(procedures, max_size=3, unique_by=lambda p: slug(p.name)),
    profile=st.none() | paragraphs)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
# An empty memory is not drawn: memconv writes only MEMORY.md for it, and memfmt validate says
# "no memfmt files" of an index alone.
@given(memories.filter(lambda m: m.entities or m.episodes or m.procedures or m.profile))
def test_every_store_memconv_writes_passes_memfmt_validate(tmp_path_factory, memory):
    out = tmp_path_factory.mktemp("out")
    shutil.rmtree(out)
    write_tree(dialect.write(from_library(memory, generated=DAY)), out)
    status, said = validate(out, today=DAY)
    assert status == 0, f"memfmt validate accepts memconv's output:\n{said}"


def test_an_edited_store_written_by_the_cli_passes_memfmt_validate(tmp_path):
    # Verified by making _keeps_path keep every owned record's path (no re-planning after a
    # rename): fails because memory/entities/Kenji Sato.md is never written.
    store = dialect.read(FULL)
    by_link = {r.link: r for r in store.records}
    by_link["Ali"].facts.append("moved to Osaka")
    by_link["Ali"].edges.append(Edge("knows", "Sam Lee", "met at a meetup"))
    by_link["Ali"].knowledge.append(Knowledge("config", "pool", "the pool size", "pool_max = 8"))
    by_link["Kenji"].title = by_link["Kenji"].link = "Kenji Sato"
    proc = by_link["deploy to Railway"]
    proc.successes += 1
    proc.steps.append(Step("post the release note", gives=["note"], successes=1, failures=0))
    by_link["an undated conversation"].happened = "2026-08-01"
    store.meta["date"] = DAY
    out = tmp_path / "out"
    write_tree(dialect.write(store), out)
    assert (out / "memory/entities/Kenji Sato.md").is_file() and not (out / "memory/entities/Kenji.md").exists()
    assert "(v3 · 88% reliable)" in (out / "memory/procedures/deploy to Railway.md").read_text()
    status, said = validate(out, today=DAY)
    assert status == 0, said
    loaded = memfmt.load(out)
    assert {e.name for e in loaded.entities} == {"Ali", "Kenji Sato", "Mengram", "cloud/api.py"}


def test_the_cli_writes_the_full_golden_store_back_byte_identical(tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["migrate", str(FULL), str(out)])
    assert result.exit_code == 0, result.output
    for path in FULL.rglob("*"):
        if path.is_file():
            assert (out / path.relative_to(FULL)).read_bytes() == path.read_bytes()
    assert CliRunner().invoke(main, ["check", str(FULL)]).exit_code == 0


def test_a_store_given_as_its_memory_folder_keeps_that_shape(tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["migrate", str(FULL / "memory"), str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "MEMORY.md").read_bytes() == (FULL / "memory/MEMORY.md").read_bytes()
    assert (out / "entities/Ali.md").is_file() and not (out / "memory").exists()
    assert validate(out, today=DAY)[0] == 0
