"""Where a memory came from (memoir's fact ``source``, memspec's ``source``) is shown wherever the target has no key.

memoir's facts and Claude's say ``source:`` in their frontmatter and memspec says it of every claim, but a memfmt
entity has no key for it, nor has a memoir or Claude decision: ``source: ops runbook, 2026-05 review`` travelled in
the carry only, which no tool of the target shows (principle 1; found by fuzzing a word into source files and
looking for it in the target's files). It is now a labelled line, ``**Source:** …``, read back as the field when
edited there.
"""

from __future__ import annotations

from memconv.cli import main

from .conftest import GOLDEN, tree

MEMOIR = GOLDEN / "memoir" / "canonical" / "input"
MEMSPEC = GOLDEN / "memspec" / "canonical" / "input"


def _shown(out, needle: bytes) -> list[bytes]:
    return [data for path, data in tree(out).items() if ".memconv" not in path and "MEMORY" not in path
            and needle in data]


def test_a_memoir_facts_source_is_shown_in_memfmt_and_comes_home_exact(runner, tmp_path):
    out = tmp_path / "memfmt"
    assert runner.invoke(main, ["memoir-to-memfmt", str(MEMOIR), str(out)]).exit_code == 0
    (entity,) = _shown(out, b"**Source:** ")
    assert b"\n- **Source:** ops runbook, 2026-05 review\n" in entity
    back = runner.invoke(main, ["memfmt-to-memoir", str(out), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    home = tree(tmp_path / "back")
    assert {path: home.get(path) for path in tree(MEMOIR)} == tree(MEMOIR)


def test_a_claims_source_is_shown_once_where_the_target_has_a_key_for_it(runner, tmp_path):
    # A Claude reference memory (a fact) says it in its frontmatter: not a second time in its body.
    out = tmp_path / "claude"
    assert runner.invoke(main, ["memspec-to-claude", str(MEMSPEC), str(out)]).exit_code == 0
    said = {path: data for path, data in tree(out).items() if ".memconv" not in path and "MEMORY" not in path}
    facts = [data for path, data in said.items() if path.startswith("reference_")]
    assert facts and all(b"\nsource: " in data and b"**Source:**" not in data for data in facts)
    others = [data for path, data in said.items() if not path.startswith("reference_") and b"memconv" in data]
    assert others and all(b"**Source:** " in data for data in others)


def test_an_edit_of_the_source_line_in_memfmt_wins(runner, tmp_path):
    out = tmp_path / "memfmt"
    assert runner.invoke(main, ["memoir-to-memfmt", str(MEMOIR), str(out)]).exit_code == 0
    (path,) = [p for p in out.rglob("*.md") if b"**Source:** ops runbook" in p.read_bytes()]
    path.write_bytes(path.read_bytes().replace(b"**Source:** ops runbook, 2026-05 review",
                                               b"**Source:** the ops wiki"))
    back = runner.invoke(main, ["memfmt-to-memoir", str(out), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    assert "source_text" in back.stderr
    fact = (tmp_path / "back" / "memory" / "fact_staging-endpoints.md").read_bytes()
    assert b"\nsource: the ops wiki\n" in fact and b"**Source:**" not in fact


def test_a_memoir_entrys_project_is_shown_in_memspec_and_memfmt(runner, tmp_path):
    # memoir scopes an entry to a project (``project: acme-api``) and Claude's frontmatter keeps it; memspec and memfmt
    # have no key for it, and it travelled in their carries only (found by listing every word of each record that the
    # target's files do not show).
    for target in ("memspec", "memfmt"):
        out = tmp_path / target
        assert runner.invoke(main, [f"memoir-to-{target}", str(MEMOIR), str(out)]).exit_code == 0
        shown = _shown(out, b"**Project:** acme-api")
        assert len(shown) == 2  # the fact and the decision scoped to it
        back = runner.invoke(main, [f"{target}-to-memoir", str(out), str(tmp_path / f"back-{target}"),
                                    "--fail-on-loss"])
        assert back.exit_code == 0, back.stderr
        home = tree(tmp_path / f"back-{target}")
        assert {path: home.get(path) for path in tree(MEMOIR)} == tree(MEMOIR)
    claude = tmp_path / "claude"
    assert runner.invoke(main, ["memoir-to-claude", str(MEMOIR), str(claude)]).exit_code == 0
    assert not _shown(claude, b"**Project:**")  # its frontmatter says it


def test_a_source_written_in_memspecs_key_lands_in_the_body_at_home(runner, tmp_path):
    # A memoir next action has no key for where it came from; memspec says it of every claim (``source:
    # memconv-import`` where none was given). Written there by hand, it was reported dropped ("memoir's files have no
    # place for them"); it is now a labelled line of the body, as a memspec claim's source is shown in memoir.
    # Watched fail before the fix (exit 5).
    out = tmp_path / "memspec"
    assert runner.invoke(main, ["memoir-to-memspec", str(MEMOIR), str(out)]).exit_code == 0
    (claim,) = [p for p in out.rglob("*.md") if b"# Add retry with backoff" in p.read_bytes()]
    text = claim.read_bytes()
    claim.write_bytes(text.replace(b"\nsource: memconv-import\n", b"\nsource: the sync incident review\n"))
    back = runner.invoke(main, ["memspec-to-memoir", str(out), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    entry = "memory/next_action_sync-retry.md"
    assert (tmp_path / "back" / entry).read_bytes() \
        == (MEMOIR / entry).read_bytes() + b"\n**Source:** the sync incident review\n"
