"""Every conversion's output is a store the target's own tools accept.

memfmt: the real ``memfmt validate``. memoir: the JSON Schemas and the
reference validator's error rules. memspec: its schema rules. claude: top-level
types Claude Code knows, and index pages it loads whole (200 lines, 25 KB)
that link every memory. Each case asserts that it checked every record the
target's reader finds, so a case that checks nothing, or skips a record, fails.
"""

from __future__ import annotations

import re

import pytest

from memconv import dialects
from memconv.dialects.claude import index as claude_index
from memconv.text import decode
from memconv import frontmatter as fmx

from . import golden
from .conftest import tree
from .convert_helpers import golden_inputs
from .memfmt_oracle import validate
from .memoir_rules import entry_errors, session_errors
from .memspec_schema_rules import problems

TARGETS = ("memoir", "claude", "memspec", "memfmt")


def _outputs(target: str) -> list:
    """Every golden store converted into ``target`` (tests/golden.py), as a folder, one case each."""
    return [pytest.param((d, n, t), id=f"{d}/{n}/convert-to-{t}") for d, n, t in golden.CONVERSIONS if t == target]


def test_every_golden_conversion_has_a_case():
    # A golden input converted into no target, or a target left without cases, would silently lose its cases here.
    cases = [p.values[0] for t in TARGETS for p in _outputs(t)]
    assert sorted(cases) == sorted((d, n, t) for d, n in golden_inputs() for t in TARGETS if t != d)
    assert len(cases) >= 30


@pytest.mark.parametrize("case", _outputs("memfmt"))
def test_memfmt_validate_passes(case):
    out = golden.converted_folder(*case)
    root = out / "memory" if (out / "memory").is_dir() else out
    profile = root / "profile.md"
    day = None
    if profile.is_file():
        m = re.search(r"^generated: (\S+)$", profile.read_text(), re.M)
        day = m.group(1) if m else None
    status, said = validate(root, today=day)
    assert status == 0, said


@pytest.mark.parametrize("case", _outputs("memoir"))
def test_memoir_output_passes_schemas_and_validator_rules(case):
    out = golden.converted_folder(*case)
    files = tree(out)
    opaque = {r.source.path for r in dialects.get("memoir").read(out).records if r.opaque}
    checked, kept = [], []
    for path, raw in files.items():
        if path.startswith("memory/") and path.endswith(".md") and path.count("/") == 1 and path != "memory/MEMORY.md":
            fm, _ = fmx.split(decode(raw, path)[0], path)
            if fm is None or fm.values.get("type") not in ("fact", "preference", "decision", "lesson", "goal",
                                                             "next_action"):
                kept.append(path)  # an opaque legacy entry, kept whole as it was written
                continue
            assert entry_errors(raw, path) == [], path
            assert fm.values.get("description"), f"{path}: every memoir entry has a description"
            checked.append(path)
    assert checked, "the conversion holds entries, and each was checked"
    assert set(kept) <= opaque, "an entry left unchecked is one memoir itself reads as an opaque legacy entry"
    if "session.json" in files:
        assert session_errors(files["session.json"]) == []


@pytest.mark.parametrize("case", _outputs("memspec"))
def test_memspec_output_satisfies_its_schema_rules(case):
    out = golden.converted_folder(*case)
    checked = 0
    for path, raw in tree(out).items():
        rel = path.split(".memspec/", 1)[-1]
        if rel.startswith(("memory/", "observations/", "archive/")) and rel.endswith(".md"):
            text = raw.decode("utf-8")
            assert problems(rel, text) == [], path
            # Verified by un-heading a golden record's title: fails with "every memspec record has a title".
            assert re.search(r"^# \S", text, re.M), f"{path}: every memspec record has a title"
            checked += 1
    records = dialects.get("memspec").read(out).records
    assert checked and checked == len(records), "every record the memspec reader finds was checked, and no other"


@pytest.mark.parametrize("case", _outputs("claude"))
def test_claude_output_is_a_folder_claude_code_loads(case):
    # Verified (on the committed output) by deleting the first link line of memoir/canonical's claude
    # MEMORY.md: fails with "MEMORY.md links user_commit-style.md".
    out = golden.converted_folder(*case)
    files = tree(out)
    pages = {p: raw.decode() for p, raw in files.items() if claude_index.is_index_path(p)}
    assert "MEMORY.md" in pages, "Claude Code loads MEMORY.md: there is one"
    for page, text in pages.items():
        assert claude_index.fits(text.split("\n")[:-1]), f"{page} stays within Claude Code's 200 lines and 25 KB"
    linked = 0
    for path, raw in files.items():
        if "/" in path or not path.endswith(".md") or claude_index.is_index_path(path):
            continue
        fm, _ = fmx.split(decode(raw, path)[0], path)
        if fm is not None and "type" in fm.values:
            assert fm.values["type"] in ("user", "feedback", "project", "reference"), path
        assert any(f"]({path})" in page for page in pages.values()), f"MEMORY.md links {path}"
        linked += 1
    records = dialects.get("claude").read(out).records
    assert linked and linked == len(records), "every memory the claude reader finds was checked, and no other"
