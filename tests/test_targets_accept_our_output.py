"""Every conversion's output is a store the target's own tools accept.

memfmt: the real ``memfmt validate``. memoir: the JSON Schemas and the
reference validator's error rules. memspec: its schema rules. claude: top-level
types Claude Code knows and a ``MEMORY.md`` it loads whole (under 200 lines)
that links every memory.
"""

from __future__ import annotations

import re

import pytest

from memconv import dialects
from memconv.text import decode
from memconv import frontmatter as fmx

from .conftest import GOLDEN, tree
from .convert_helpers import golden_inputs
from .memfmt_oracle import validate
from .memoir_rules import entry_errors, session_errors
from .memspec_schema_rules import problems

OUTPUTS = sorted(p for d, n in golden_inputs() for p in (GOLDEN / d / n).glob("convert-to-*"))


def _ids(path):
    return str(path.relative_to(GOLDEN))


@pytest.mark.parametrize("out", [p for p in OUTPUTS if p.name == "convert-to-memfmt"], ids=_ids)
def test_memfmt_validate_passes(out):
    root = out / "memory" if (out / "memory").is_dir() else out
    profile = root / "profile.md"
    day = None
    if profile.is_file():
        m = re.search(r"^generated: (\S+)$", profile.read_text(), re.M)
        day = m.group(1) if m else None
    status, said = validate(root, today=day)
    assert status == 0, said


def _memoir_outputs():
    return [pytest.param(p, id=_ids(p)) for p in OUTPUTS if p.name == "convert-to-memoir"]


@pytest.mark.parametrize("out", _memoir_outputs())
def test_memoir_output_passes_schemas_and_validator_rules(out):
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


@pytest.mark.parametrize("out", [pytest.param(p, id=_ids(p)) for p in OUTPUTS if p.name == "convert-to-memspec"])
def test_memspec_output_satisfies_its_schema_rules(out):
    checked = 0
    for path, raw in tree(out).items():
        rel = path.split(".memspec/", 1)[-1]
        if rel.startswith(("memory/", "observations/", "archive/")) and rel.endswith(".md"):
            text = raw.decode("utf-8")
            assert problems(rel, text) == [], path
            assert re.search(r"^# \S", text, re.M), f"{path}: every memspec record has a title"
            checked += 1
    assert checked, "the conversion holds records, and each was checked"


@pytest.mark.parametrize("out", [p for p in OUTPUTS if p.name == "convert-to-claude"], ids=_ids)
def test_claude_output_is_a_folder_claude_code_loads(out):
    files = tree(out)
    index = files.get("MEMORY.md", b"").decode()
    pages = [files[p].decode() for p in files if re.fullmatch(r"MEMORY(-\d+)?\.md", p)]
    assert index.count("\n") < 200, "MEMORY.md stays under the 200 lines Claude Code loads"
    linked = 0
    for path, raw in files.items():
        if "/" in path or not path.endswith(".md") or path.startswith("MEMORY"):
            continue
        fm, _ = fmx.split(decode(raw, path)[0], path)
        if fm is not None and "type" in fm.values:
            assert fm.values["type"] in ("user", "feedback", "project", "reference"), path
        assert any(f"]({path})" in page for page in pages), f"MEMORY.md links {path}"
        linked += 1
    assert linked, "the conversion holds memories, and each was checked"
