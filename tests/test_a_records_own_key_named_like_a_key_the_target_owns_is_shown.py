"""A record's own unknown key named like a key the target's files own is shown in the target's text.

Before (forty-fifth session, found by a hunt): a memspec claim's own ``name:`` or ``description:`` (keys memspec has
no use for, kept in ``extra``) was left out of the claude and memoir files: those keys are the target's own (the
record's title and description), so the writer skipped them, and the text lived only in the carry, where neither
Claude Code nor memoir shows or searches it. The same held the other way for memfmt's own keys (a Claude memory's
``id:``). Each such key is now a ``**key:** value`` line of the body, the one rule by which a target that hides
unknown keys (memspec) shows them; the way home takes the line out again, so the store comes home byte for byte.
"""
import pytest

from memconv.cli import main

from .memspec_decision import memspec_decision_store
from .reference_tools import memoir_validate, needs_memoir

MEMORY = """---
name: Deploy freeze
description: No deploys on Fridays
type: reference
id: JIRA-1234 the freeze ticket
---

No deploys on Fridays, ever.
"""


def _memspec(tmp_path):
    return memspec_decision_store(tmp_path, "name: A name key a person wrote\n"
                                            "description: A description a person wrote\n")


def _claude(tmp_path):
    store = tmp_path / "in"
    store.mkdir()
    (store / "reference_deploy-freeze.md").write_text(MEMORY, encoding="utf-8")
    (store / "MEMORY.md").write_text("# Memory Index\n\n- [Deploy freeze](reference_deploy-freeze.md) — No deploys "
                                     "on Fridays\n", encoding="utf-8")
    return store


def _convert(runner, store, source, target, out):
    result = runner.invoke(main, ["convert", "--from", source, "--to", target, str(store), str(out)])
    assert result.exit_code == 0, result.output
    # the files as their tools read them, memconv's carry (one line) aside: it is never the only home of text
    files = (p.read_text(encoding="utf-8") for p in sorted(out.rglob("*.md")) if ".memconv" not in p.parts)
    return "".join(line for text in files for line in text.splitlines(True) if not line.startswith("memconv:"))


@pytest.mark.parametrize("target", ["claude", "memoir"])
def test_a_memspec_claims_own_name_and_description_are_in_the_targets_body(runner, tmp_path, target):
    store = _memspec(tmp_path)
    written = _convert(runner, store, "memspec", target, tmp_path / "out")
    body = written.split("\n---\n", 1)[1]  # not the frontmatter's own name and description
    assert "**name:** A name key a person wrote" in body, written
    assert "**description:** A description a person wrote" in body, written
    check = runner.invoke(main, ["check", "--via", target, str(store)])
    assert check.exit_code == 0, check.output


def test_a_claude_memorys_own_id_is_in_the_memfmt_file(runner, tmp_path):
    store = _claude(tmp_path)
    written = _convert(runner, store, "claude", "memfmt", tmp_path / "out")
    assert "JIRA-1234 the freeze ticket" in written, written
    check = runner.invoke(main, ["check", "--via", "memfmt", str(store)])
    assert check.exit_code == 0, check.output


@needs_memoir
def test_memoir_validate_accepts_it(runner, tmp_path):
    out = tmp_path / "out"
    _convert(runner, _memspec(tmp_path), "memspec", "memoir", out)
    verdict = memoir_validate(out)
    assert verdict.ok, verdict.output
