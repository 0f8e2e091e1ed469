"""memfmt stores written by the real library, with hostile text, survive every other dialect and back."""

from __future__ import annotations

import tempfile
from pathlib import Path

import memfmt
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from memconv.dialects import memfmt as ours

from .convert_helpers import DIALECTS, hop, model
from .memfmt_oracle import memories


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
# The library writes nothing for an empty memory: there is no store to read, so none is drawn.
@given(memory=memories(unique_names=True).filter(lambda m: m.entities or m.episodes or m.procedures or m.profile),
       via=st.sampled_from([d for d in DIALECTS if d != "memfmt"]))
# Found by this test: a blank summary (memory/episodes/unnamed.md, "#") beside an empty one
# (memory/episodes/episode.md, "# untitled") came home as untitled.md (test below).
@example(memory=memfmt.Memory(episodes=[memfmt.Episode(summary=" "), memfmt.Episode(summary="")]),
         via="memoir").via("discovered failure")
# Found by this test: a fact "-" written into a memoir body is an empty list item there, and memoir → memfmt
# made no fact of it (transforms.facts_of).
@example(memory=memfmt.Memory(entities=[memfmt.Entity(name="-", facts=["-", "-"])]),
         via="memoir").via("discovered failure")
# Found by this test: a fact "- -" (then "- :") beside another is a list item in a memoir body; read back home
# paragraph by paragraph it came back, so nothing was carried, and memoir → memfmt then read it by blocks ("-").
@example(memory=memfmt.Memory(entities=[memfmt.Entity(name="-", facts=["-", "- -"])]),
         via="memoir").via("discovered failure")
@example(memory=memfmt.Memory(entities=[memfmt.Entity(name="-", facts=["-", "- :"])]),
         via="memoir").via("discovered failure")
def test_a_memfmt_store_comes_back_from_any_dialect(memory, via):
    with tempfile.TemporaryDirectory() as tmp:
        memfmt.write_dir(memfmt.serialise(memory), tmp)  # the library writes tmp/memory/...
        # NUL bytes: memoir, claude and memspec refuse such a file as binary, by design.
        assume(not any(b"\x00" in p.read_bytes() for p in Path(tmp).rglob("*") if p.is_file()))
        store = ours.read(Path(tmp))
    assume(not store.quarantined)  # memconv refuses what memfmt would misread; that is tested elsewhere
    there, _ = hop(store, via)
    back, _ = hop(there, "memfmt")
    assert model(back) == model(store), f"memfmt→{via}→memfmt keeps every record"


@pytest.mark.parametrize("summary", ["", "Standup"])
@pytest.mark.parametrize("via", [d for d in DIALECTS if d != "memfmt"])
def test_an_episode_whose_link_starts_like_a_windows_drive_comes_home(via, summary, tmp_path):
    # memfmt's library names this episode's file ``X:-episode.md`` (``X:-standup.md``): the link is
    # that stem, a name memfmt never writes a file after, not a path. Found by the test above:
    # the carry in the other dialect was refused as "outside the store" and the episode came back
    # as an entity "untitled".
    memory = memfmt.Memory(entities=[memfmt.Entity(name="Ali", facts=["likes tea"])],
                           episodes=[memfmt.Episode(summary=summary, happened="X:")])
    memfmt.write_dir(memfmt.serialise(memory), tmp_path)
    store = ours.read(tmp_path)
    (episode,) = [r for r in store.records if r.kind == "episode"]
    assert episode.link.startswith("X:"), "the case this test is about"
    there, _ = hop(store, via)
    back, _ = hop(there, "memfmt")
    assert model(back) == model(store), f"memfmt→{via}→memfmt keeps the episode"


@pytest.mark.parametrize("happened", [None, "2024-01-01"])
@pytest.mark.parametrize("via", [d for d in DIALECTS if d != "memfmt"])
def test_an_untitled_episode_beside_a_blank_one_keeps_its_file(via, happened, tmp_path):
    # memfmt's library names an episode with no summary ``episode.md`` ("# untitled") and one whose
    # summary is blank ``unnamed.md`` ("#"). Rendered anew (to tell which files need a format patch),
    # the first goes to ``untitled.md`` and the second to ``episode.md``, in bytes the first file's
    # very own: the first was taken for a file its writer gives back as it was, its path was not
    # carried, and it came home as ``untitled.md``, another link. Found by the test above.
    # With a date, the same: ``2024-01-01-episode.md`` came home as ``2024-01-01-untitled.md``.
    memory = memfmt.Memory(episodes=[memfmt.Episode(summary=" ", happened=happened),
                                     memfmt.Episode(summary="", happened=happened)])
    memfmt.write_dir(memfmt.serialise(memory), tmp_path)
    stems = [f"{happened}-{s}" if happened else s for s in ("episode", "unnamed")]
    assert sorted(p.name for p in (tmp_path / "memory" / "episodes").iterdir()) == [f"{s}.md" for s in stems]
    store = ours.read(tmp_path)
    there, _ = hop(store, via)
    back, files = hop(there, "memfmt")
    assert sorted(r.link for r in back.records) == stems, "each episode comes home under its own link"
    assert sorted(p for p in files if p.startswith("memory/episodes/")) == [f"memory/episodes/{s}.md" for s in stems]
    assert model(back) == model(store), f"memfmt→{via}→memfmt keeps both episodes"


@pytest.mark.parametrize("via", [d for d in DIALECTS if d != "memfmt"])
def test_a_plain_memfmt_entity_comes_back(via, tmp_path):
    # Nothing to carry: the other dialect's copy is its own, and its index a plain one (claude
    # compares it with the index its writer would generate: that comparison once raised).
    memfmt.write_dir(memfmt.serialise(memfmt.Memory(entities=[memfmt.Entity(name="Ali", facts=["likes tea"])])),
                     tmp_path)
    store = ours.read(tmp_path)
    there, _ = hop(store, via)
    back, _ = hop(there, "memfmt")
    assert model(back) == model(store), f"memfmt→{via}→memfmt keeps the entity"


@pytest.mark.parametrize("facts", [["likes tea", "- takes it black"], ["* first", "1. second"], ["-", "- :"],
                                   ["likes tea", "```", "> quoted"]])
@pytest.mark.parametrize("via", [d for d in DIALECTS if d != "memfmt"])
def test_facts_the_other_dialect_shows_as_a_list_come_home_as_written(via, facts, tmp_path):
    # A fact "- takes it black" is a list item in the other dialect's body, whose reading by blocks (a conversion
    # into memfmt of a record that carries nothing) gives "takes it black". The record carries its owner, so the
    # way home reads the body as the read-back did, paragraph by paragraph (docs/conversion.md, "Facts from a
    # body's blocks").
    memory = memfmt.Memory(entities=[memfmt.Entity(name="Ali", facts=facts)])
    memfmt.write_dir(memfmt.serialise(memory), tmp_path)
    store = ours.read(tmp_path)
    there, _ = hop(store, via)
    back, _ = hop(there, "memfmt")
    assert model(back) == model(store), f"memfmt→{via}→memfmt keeps every fact as written"
