"""What `memconv upgrade` promises on any legacy folder: schema-valid, no link broken, nothing lost, idempotent.

Checked on the goldens and on legacy folders hypothesis makes up.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memconv import upgrade as upgrading
from memconv.dialects import claude
from memconv.report import Report

from .claude_support import GOLDEN, STORES, entry_schema, frontmatter, links, tree, write

_VALIDATOR = jsonschema.Draft202012Validator(entry_schema())


def _upgrade(root: Path):
    report = Report(command="upgrade", input=str(root))
    return upgrading.plan(root, report).files, report


def _check_guarantees(root: Path, tmp: Path) -> None:
    # Verified by making markdown.rewrite_links a no-op: fails with "feedback_api.md → reference_wiki
    # resolved before the upgrade and must after it"; by dropping the how_to_apply check of
    # canonical_problems: fails with "memory/lesson_commits.md is canonical memoir v0.1.2: [...]";
    # by dropping the fact entries made of inline bullets: fails with "inline memory 'Inline: the
    # staging DB is reset every Sunday' reaches an entry".
    before = tree(root)
    files, report = _upgrade(root)

    # Every canonical entry passes the memoir entry schema.
    canonical = [f for f in report.files if f.status in ("converted", "kept") and f.target_kind != "index"]
    for f in canonical:
        values = frontmatter(files[f.target], f.target)
        errors = [e.message for e in _VALIDATOR.iter_errors(values)]
        assert not errors, f"{f.target} is canonical memoir v0.1.2: {errors}"

    # No entry lost: every input file has an output file, and opaque ones keep their bytes bar link renames.
    by_source = {f.source: f for f in report.files}
    for path in before:
        assert path in by_source and by_source[path].target in files, f"{path} reaches the output"
    renamed = {f.source[:-3]: f.target.rsplit("/", 1)[-1][:-3] for f in report.files
               if f.source and f.target and f.source.endswith(".md") and "/" not in f.source}
    for f in report.files:
        if f.status in ("opaque", "quarantined", "foreign") and not any(c.startswith("link") for c in f.changes):
            assert files[f.target] == before[f.source], f"{f.source} is kept as written"

    # No inline index bullet lost: each is a canonical fact entry now, linked from the index.
    source = claude.read(root)
    entries = "\n".join(d.decode("utf-8") for p, d in files.items() if not p.endswith("MEMORY.md"))
    for idx in source.indexes:
        for section in idx.sections:
            for text in section.inline:
                for line in text.split("\n"):
                    assert line in entries, f"inline memory {line!r} reaches an entry"

    # Every link that resolved before still resolves, under its new name.
    before_links = links(before, "")
    after_links = {(renamed.get(f[:-3], f[:-3]) + ".md" if not f.startswith("MEMORY") else f, t): ok
                   for f, t, ok in links(files, "memory")}
    for file, target, ok in before_links:
        if ok:
            new_file = file if file.startswith("MEMORY") else renamed.get(file[:-3], file[:-3]) + ".md"
            key = (new_file, renamed.get(target, target))
            assert after_links.get(key), f"{file} → {target} resolved before the upgrade and must after it"
    broken_after = sum(1 for ok in after_links.values() if not ok)
    assert broken_after <= sum(1 for *_, ok in before_links if not ok), "the upgrade breaks no link"

    # Upgrading twice gives the same bytes as upgrading once.
    out = write(files, tmp / "once")
    twice, _ = _upgrade(out)
    assert twice == files, "upgrade is idempotent"

    # claude → claude stays byte-identical on the same folder.
    quarantined = {q.path for q in source.quarantined}
    assert claude.write(source) == {p: b for p, b in before.items() if p not in quarantined}


@pytest.mark.parametrize("store", STORES)
def test_golden_upgrade_keeps_every_promise(store, tmp_path):
    _check_guarantees(GOLDEN / store / "input", tmp_path)


_slug = st.text(alphabet="abcdefgh_-", min_size=1, max_size=8).filter(lambda s: s[0].isalpha())
_text = st.text(alphabet="abc xyz:#—'\"", min_size=1, max_size=16).filter(lambda s: s.strip() == s)


@st.composite
def legacy_folder(draw) -> dict[str, bytes]:
    n = draw(st.integers(1, 7))
    stems = draw(st.lists(_slug, min_size=n, max_size=n, unique_by=str.lower))
    words = ["user", "feedback", "reference", "project", None, "lesson", "decision"]
    files: dict[str, bytes] = {}
    for stem in stems:
        word = draw(st.sampled_from(words))
        stem = f"{word}_{stem}" if word and draw(st.booleans()) else stem
        targets = draw(st.lists(st.sampled_from(stems + ["missing_x"]), max_size=2))
        wiki = " ".join(f"[[{t}]]" for t in targets)
        how = draw(st.sampled_from(["", "\n**How to apply:** do it " + wiki + "\n",
                                    "\n```\n**How to apply:** fenced\n```\n"]))
        body = f"Body {wiki}\n{how}"
        if word is None:
            files[f"{stem}.md"] = f"# {draw(_text)}\n\n{body}".encode()
            continue
        lines = [f"name: {json.dumps(draw(_text), ensure_ascii=False)}"]
        if draw(st.booleans()):
            lines.append(f"description: {json.dumps(draw(_text), ensure_ascii=False)}")
        if word == "lesson":
            lines += ["trigger: t", "how_to_apply: h"]
        if draw(st.booleans()):
            lines.append(f"type: {word}")
        else:
            lines.append(f"metadata:\n  type: {word}\n  node_type: memory")
        if draw(st.booleans()):
            lines.append("originSessionId: abc-123")
        if draw(st.booleans()):
            lines.append("aliases:\n    - one\n    - two")
        files[f"{stem}.md"] = ("---\n" + "\n".join(lines) + "\n---\n" + body).encode()
    index = ["# Memory", ""]
    for path in files:
        if draw(st.booleans()):
            index.append(f"- [{path[:-3]}]({path}) — hook")
    index += ["- [Gone](gone.md) — missing", "## Notes", f"- {draw(_text)}"]
    files["MEMORY.md"] = ("\n".join(index) + "\n").encode()
    return files


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(legacy_folder())
def test_upgrade_of_any_legacy_folder_keeps_every_promise(tmp_path, folder):
    root = tmp_path / "case"
    shutil.rmtree(root, ignore_errors=True)
    write(folder, root / "in")
    _check_guarantees(root / "in", root)
