"""Every warning the golden stores give has a kind of its own in ``notices``: none is ``other``.

A person sees warnings grouped by kind (docs/report.md), a program reads their ``kind``. Until the forty-sixth
session, warnings every user of a real store meets had none: memoir's "not a canonical memoir entry; kept whole as an
opaque entry", memfmt's "markdown without memfmt_type: someone's own note, carried untouched …" and its byte-order
mark's, memspec's "valid_from '…' is unquoted; memspec 0.7.2 rejects it …", a link to a record kept as a note ("it
links ms_…, which is kept as a note …"), an upgrade's file it could not read ("…; carried unchanged") and a Claude
merge's "the two indexes have different titles". Each golden store is run through the commands that read it
(every conversion, migrate, check, upgrade, and a merge with another golden store of its dialect).
"""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from memconv.cli import main
from memconv.report import kind_of

from .conftest import GOLDEN

DIALECTS = ("memoir", "claude", "memspec", "memfmt")
STORES = sorted(p.parent for p in GOLDEN.glob("*/*/input"))


def _others(args: list[str]) -> list[tuple[str | None, str]]:
    result = CliRunner().invoke(main, [*args, "--json"])
    doc = json.loads(result.stdout)
    assert doc["error"] is None or doc["error"]["kind"] == "input", result.output
    return [(n["path"], n["message"]) for n in doc["notices"] if n["kind"] == "other"]


def _runs(store, out) -> list[list[str]]:
    dialect, src = store.parent.name, str(store / "input")
    runs = [["convert", "--from", dialect, "--to", to, src, str(out / to)] for to in DIALECTS]
    runs += [["migrate", src, str(out / "migrated")], ["check", src]]
    if dialect == "claude":
        runs.append(["upgrade", src, str(out / "upgraded")])
    # A memspec store given as its .memspec folder merges only with another given so.
    same_way = (store / "input" / ".memspec").exists()
    partners = [p for p in STORES if p.parent == store.parent and p != store
                and (p / "input" / ".memspec").exists() == same_way]
    if partners:
        runs.append(["merge", src, str(partners[0] / "input"), str(out / "merged")])
        runs.append(["merge", str(partners[0] / "input"), src, str(out / "merged-back")])
    return runs


@pytest.mark.parametrize("store", STORES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_warning_of_a_golden_store_is_of_kind_other(tmp_path, store):
    # Watched fail before the forty-sixth session's kinds: every warning named in the docstring was "other".
    found = {(a[-1].rsplit("/", 1)[-1] if a[0] != "check" else "check", path, message)
             for a in _runs(store, tmp_path) for path, message in _others(a)}
    assert not found, "\n".join(f"{run}: {path}: {message}" for run, path, message in sorted(found))


#: Warnings of the same families that no golden store gives, each with the kind its golden sibling has.
SIBLINGS = [
    ("a second memfmt index (the store's is memory/index.md); carried untouched", "carried-untouched"),
    ("memfmt_type 'x' is not a kind memfmt reads (entity, episode, procedure, profile, index); carried untouched",
     "carried-untouched"),
    ("memoir entry is version 9; this memconv knows up to 1 — upgrade memconv to read it; carried unchanged",
     "carried-untouched"),
    ("valid_to '2026-04-02' is not an ISO date-time ending in Z; memspec 0.7.2 rejects it (quote it as "
     "'YYYY-MM-DDTHH:MM:SS.sssZ'); kept as written", "date-refused"),
    ("it links ms_1, the working set's rendering, restored as the working set (session state), not as a current "
     "memory: in memspec the link points at no memory; it is kept as written, for the way back", "link-to-no-memory"),
    ("not linked from MEMORY.md, which ends inside a code block, where a link is not read; link it there by hand, "
     "or Claude Code will not find it", "not-linked-from-index"),
    ("it links x, whose memory is not in memspec any more (deleted there?): the link points at nothing; take it out "
     "of MEMORY.md if it should go", "link-to-nothing"),
]


@pytest.mark.parametrize("message,kind", SIBLINGS)
def test_a_warning_of_the_same_family_has_the_same_kind(message, kind):
    known = kind_of(message)
    assert known is not None and known.name == kind


def test_a_session_memoir_validate_rejects_is_said_of_its_own_kind(tmp_path):
    # Watched fail before the kind session-invalid: both were "other", each on a line of its own. memoir validate
    # says of this file "missing required field: created_at" and "current.goals[0] must be an object".
    store = tmp_path / "in"
    shutil.copytree(GOLDEN / "memoir" / "messy" / "input", store)
    session = json.loads((store / "session.json").read_text())
    del session["created_at"]
    session["current"]["goals"].append("a bare string")
    (store / "session.json").write_text(json.dumps(session, indent=2))
    result = CliRunner().invoke(main, ["migrate", str(store), str(tmp_path / "out"), "--json"])
    said = [(n["kind"], n["message"]) for n in json.loads(result.stdout)["notices"] if n["path"] == "session.json"]
    assert [kind for kind, _ in said] == ["session-invalid", "session-invalid"], said
    assert "no 'created_at'" in said[0][1] and "'current.goals[0]'" in said[1][1]


def test_a_memory_new_to_a_claude_folder_linked_from_its_index_is_said_of_its_own_kind(tmp_path):
    # Watched fail before the kind linked-from-index: "reference_new-thing.md: linked from MEMORY.md under
    # '## Reference': a memory new to this folder, …" was "other", said of every memory added in the other dialect.
    runner = CliRunner()
    away = tmp_path / "memoir"
    assert runner.invoke(main, ["claude-to-memoir", str(GOLDEN / "claude" / "mixed-project" / "input"),
                                str(away), "-q"]).exit_code == 0
    (away / "memory" / "fact_new-thing.md").write_text(
        "---\nname: fact_new-thing\ndescription: A new fact added in memoir\ntype: fact\n---\n"
        "The build server is called hal.\n")
    result = runner.invoke(main, ["memoir-to-claude", str(away), str(tmp_path / "back"), "--json"])
    said = [n for n in json.loads(result.stdout)["notices"] if n["path"] == "reference_new-thing.md"]
    assert [(n["kind"], n["message"].startswith("linked from MEMORY.md under '## Reference'")) for n in said] == \
        [("linked-from-index", True)], said


def test_a_record_edited_in_the_other_dialect_is_said_as_edited_in_target(tmp_path):
    # Watched fail before: "edited in memspec: body — the edit wins, the carried copies were dropped" was "other"
    # since its wording was restated (conversion.edits_said), though the kind edited-in-target is for it.
    runner = CliRunner()
    away = tmp_path / "memspec"
    assert runner.invoke(main, ["memoir-to-memspec", str(GOLDEN / "memoir" / "canonical" / "input"),
                                str(away), "-q"]).exit_code == 0
    edited = sorted((away / ".memspec" / "memory").glob("*/*.md"))[0]
    edited.write_text(edited.read_text() + "An added line.\n")
    result = runner.invoke(main, ["memspec-to-memoir", str(away), str(tmp_path / "back"), "--json"])
    said = [n for n in json.loads(result.stdout)["notices"] if n["message"].startswith("edited in memspec: ")]
    assert [(n["path"], n["kind"]) for n in said] == \
        [(edited.relative_to(away).as_posix(), "edited-in-target")], said


#: The last warnings of no kind, or of a kind that said something else (forty-sixth session), each as its code writes
#: it, with the kind it has now. Watched fail before: all "other" but the first three (index-split, though nothing
#: was split) and two of restore.py's (edited-in-target, while their siblings were "other").
LAST_ONES = [
    ("258 lines (Claude Code loads only the first 200 lines), written as this folder's index had it: what is past "
     "the limit is not read by Claude Code; move some of it into a topic file", "index-over-limit"),
    ("258 lines (Claude Code loads only the first 200 lines) with the memories linked there, so what is past the "
     "limit is not read: move some links into a topic file", "index-over-limit"),
    ("30000 bytes (Claude Code loads only the first 25 KB) once upgraded: what is past the limit is not read by "
     "Claude Code; move some of it into a topic file", "index-over-limit"),
    ("MEMORY.md would be 509 lines (30000 bytes), and Claude Code loads only the first 200 lines and 25 KB: split "
     "into 3 linked index pages (MEMORY.md, memory-index-2.md, memory-index-3.md)", "index-split"),
    ("the working set's rendering is not in memspec any more; the working set is restored from this note as it "
     "was, and the deletion is not applied (counted dropped): take its items out of session.json if they should go",
     "rendering-edited"),
    ("the working set's rendering was edited in memspec; the working set is restored from its carried copy, and the "
     "edits are not applied (counted dropped)", "rendering-edited"),
    ("the working set's rendering had its name, description edited in memspec; the working set has no place for "
     "them: dropped", "rendering-edited"),
    ("the working set's rendering is archived in memspec; the working set is session state, restored as it was",
     "rendering-edited"),
    ("the words written in MEMORY.md were edited in memspec; they come back as an entry of its own, and MEMORY.md "
     "as it was", "rendering-edited"),
    ("an inline bullet of MEMORY.md was edited in memspec; it comes back as an entry of its own, and the bullet as "
     "it was", "rendering-edited"),
    ("the text of an inline bullet of MEMORY.md was taken out in memspec; MEMORY.md says it again",
     "rendering-edited"),
    ("the rendering of MEMORY.md holds verified from memspec, and its words are unchanged; MEMORY.md has no place "
     "for the rest: dropped", "rendering-edited"),
    ("one store keeps its entries in memory/, the other flat: the merged store uses memory/", "layouts-differ"),
    ("one store is a memory/ folder, the other holds one: the merged store holds memory/", "layouts-differ"),
    ("not an import record memconv reads; it is written anew, and this import compares dates only",
     "import-record-unread"),
    ("current.goals holds 30 items, more than memoir-cli keeps (20); all kept, memoir-cli may rotate them on its "
     "next write", "session-over-cap"),
    ("its name holds a '\\', a folder separator on Windows; written as memory/entities/a-b.md", "name-unportable"),
]


@pytest.mark.parametrize("message,kind", LAST_ONES)
def test_the_last_warnings_of_no_kind_or_the_wrong_one_have_theirs(message, kind):
    known = kind_of(message)
    assert known is not None and known.name == kind, f"{message!r} is said as {known and known.name}, not {kind}"


def test_an_index_over_the_limit_kept_as_written_is_not_said_to_be_split(tmp_path):
    # Watched fail before: "MEMORY.md: 260 lines (Claude Code loads only the first 200 lines): …" was index-split,
    # grouped under "split into linked index pages" though upgrade wrote it whole, as the person kept it.
    store = tmp_path / "in"
    store.mkdir()
    (store / "user_role.md").write_text("---\nname: user role\ndescription: the role\ntype: user\n---\nI code.\n")
    notes = "".join(f"Line {n} of notes.\n" for n in range(257))
    (store / "MEMORY.md").write_text(f"# Memory Index\n\n- [User role](user_role.md) — the role\n{notes}")
    result = CliRunner().invoke(main, ["upgrade", str(store), str(tmp_path / "out"), "--json"])
    said = [(n["path"], n["kind"]) for n in json.loads(result.stdout)["notices"] if "loads only" in n["message"]]
    assert said == [("MEMORY.md", "index-over-limit")], said


def test_the_working_set_rendering_deleted_in_memspec_is_said_as_a_rendering_edited(tmp_path):
    # Watched fail before: ".memspec/.memconv/notes/working-set.md: the working set's rendering is not in memspec
    # any more; …" was "other", alone on its line.
    runner = CliRunner()
    away = tmp_path / "memspec"
    assert runner.invoke(main, ["memoir-to-memspec", str(GOLDEN / "memoir" / "canonical" / "input"),
                                str(away), "-q"]).exit_code == 0
    rendering = [p for p in (away / ".memspec" / "memory").glob("*/*.md") if "working_set" in p.read_text()]
    assert len(rendering) == 1, rendering
    rendering[0].unlink()
    result = runner.invoke(main, ["memspec-to-memoir", str(away), str(tmp_path / "back"), "--json"])
    said = [(n["path"], n["kind"]) for n in json.loads(result.stdout)["notices"]]
    assert said == [(".memspec/.memconv/notes/working-set.md", "rendering-edited")], said
