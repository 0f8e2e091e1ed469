"""Anchors memspec adds to a claim converted from memoir or claude come home where home's user reads them.

``memspec anchor ID FILE`` pins a claim to a file's git blob SHA (``anchors: [{file, sha}]``). memoir and Claude
Code have no key for it: the record came home from its carry, its writer left the anchors out, and the report said
"0 dropped" (``--fail-on-loss`` passed). They now come home in its body as an ``**Anchors:**`` block, a line each,
as an edge the target added does (``**Relations:**``), and the report says the edit won. Where home has no place
that shows them (an entry kept whole), they are counted as dropped, so ``--fail-on-loss`` fails.
"""

from __future__ import annotations

import json
import shutil

import pytest

from memconv.cli import main

from .conftest import GOLDEN, changed_files, tree, write_files
from .reference_tools import memspec, needs_memspec


def _claims(out):
    return sorted((out / ".memspec" / "memory").rglob("ms_*.md"))


def _anchor(out, claim, file="src/app.py", content=b"x = 1\n"):
    """``memspec anchor`` on ``claim``, the anchored file made for it and taken away again: the sha it recorded."""
    write_files(out, {file: content})
    done = memspec(out, "anchor", claim.stem, file)
    assert done.returncode == 0, done.stdout + done.stderr
    shutil.rmtree(out / file.split("/")[0])
    text = claim.read_text()
    assert f"anchors:\n  - file: {file}\n    sha: " in text, text
    return text.split("    sha: ", 1)[1].split("\n", 1)[0]


@needs_memspec
@pytest.mark.parametrize("home, store", [("memoir", "memoir/canonical"), ("claude", "claude/canonical")])
def test_an_anchor_added_by_memspec_comes_home_in_the_body(runner, tmp_path, home, store):
    # Broken once: without readable.fold_in_anchors in restore the file came home without the anchor, the report
    # said 0 dropped and --fail-on-loss passed.
    inp = GOLDEN / store / "input"
    assert runner.invoke(main, [f"{home}-to-memspec", str(inp), str(tmp_path / "ms")]).exit_code == 0
    sha = _anchor(tmp_path / "ms", _claims(tmp_path / "ms")[0])
    result = runner.invoke(main, ["memspec-to-" + home, "--json", "--fail-on-loss", str(tmp_path / "ms"),
                                  str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    back, changed = changed_files(tmp_path / "back", inp)
    assert len(changed) == 1, changed
    text = back[changed[0]].decode()
    assert f"**Anchors:**\n\n- src/app.py @ {sha}\n" in text, text
    report = json.loads(result.stdout)
    # (memspec's anchor also turns the verified_with memconv wrote, assertion, into anchor: an edit there too)
    assert any("edited in memspec: verified_with, anchors" in w for w in report["warnings"]), report["warnings"]
    assert report["counts"]["dropped"] == 0


def test_an_anchor_a_home_entry_kept_whole_cannot_show_is_counted_dropped(runner, tmp_path):
    # A bare Claude memory (no frontmatter) is kept whole at home: nothing can be written into it, so an anchor
    # added in memspec is dropped, and said so. Broken once: without report.lost, 0 dropped and exit 0.
    write_files(tmp_path / "in", {"bare.md": b"# Deploys\n\nDeploys go out on Tuesdays.\n"})
    assert runner.invoke(main, ["claude-to-memspec", str(tmp_path / "in"), str(tmp_path / "ms")]).exit_code == 0
    [claim] = _claims(tmp_path / "ms")
    text = claim.read_text()
    claim.write_text(text.replace("\ntags:", "\nanchors:\n  - file: src/app.py\n    sha: 7d4290a1\ntags:", 1))
    args = ["memspec-to-claude", "--json", str(tmp_path / "ms"), str(tmp_path / "back")]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["counts"]["dropped"] == 1
    assert [f["dropped"] for f in report["files"] if f["dropped"]] == [["anchors"]]
    assert tree(tmp_path / "back")["bare.md"] == b"# Deploys\n\nDeploys go out on Tuesdays.\n"
    failed = runner.invoke(main, [*args[:2], "--fail-on-loss", *args[2:3], str(tmp_path / "back2")])
    assert failed.exit_code == 5, failed.output


def test_an_anchor_on_a_memfmt_entity_comes_home_as_a_fact(runner, tmp_path):
    # memfmt's entity has no body: its facts are where its user reads, so the anchor is a labelled fact there.
    inp = GOLDEN / "memfmt" / "full" / "input"
    assert runner.invoke(main, ["memfmt-to-memspec", str(inp), str(tmp_path / "ms")]).exit_code == 0
    [claim] = [c for c in _claims(tmp_path / "ms") if "\n# Kenji\n" in c.read_text()]
    text = claim.read_text()
    claim.write_text(text.replace("\ntags:", "\nanchors:\n  - file: src/app.py\n    sha: abc123\n    repo: other\ntags:",
                                  1))
    result = runner.invoke(main, ["memspec-to-memfmt", "--json", "--fail-on-loss", str(tmp_path / "ms"),
                                  str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    back, changed = changed_files(tmp_path / "back", inp)
    assert changed == ["memory/entities/Kenji.md"]
    assert back[changed[0]].decode().endswith("- **Anchor:** src/app.py @ abc123 (repo: other)\n")
