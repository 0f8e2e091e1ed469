"""Hostile input in every dialect: a good store with one odd file beside it, converted everywhere."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from memconv import dialects, pipeline
from memconv.report import Report

from .conftest import GOLDEN

#: A good store of each dialect, that odd files are dropped into.
BASE = {"memoir": "memoir/canonical", "claude": "claude/canonical", "memspec": "memspec/canonical",
        "memfmt": "memfmt/full"}
#: Where a record file of each dialect lives.
RECORD_PATH = {"memoir": "memory/fact_odd.md", "claude": "project_odd.md",
               "memspec": ".memspec/memory/facts/ms_01KNRWNA20VCD395V3FZBW4Z99.md",
               "memfmt": "memory/entities/Odd.md"}
#: Frontmatter lines that make a file a good record of each dialect.
HEAD = {"memoir": "type: fact\nname: Odd\ndescription: d\ncreated: 2026-05-14\n",
        "claude": "name: Odd\ndescription: d\ntype: project\n",
        "memspec": "id: ms_01KNRWNA20VCD395V3FZBW4Z99\nkind: claim\ntype: fact\nstate: active\n"
                   "created: '2026-08-01T10:30:00.000Z'\nsource: x\nsource_kind: agent\n",
        "memfmt": "memfmt_type: entity\nentity_type: person\n"}


def record_file(dialect: str, extra: str = "", body: str = "# Odd\n\nbody\n") -> str:
    return f"---\n{HEAD[dialect]}{extra}---\n{body}"


#: The stores ``store_with`` made, that the test session's fixture removes after each test.
MADE: list[Path] = []


def store_with(dialect: str, files: dict[str, str | bytes], base: bool = True) -> Path:
    """A temporary store: the dialect's good golden store (if ``base``) plus ``files``.

    It is removed after the test (``remove_made``, called by an autouse fixture in conftest.py).
    """
    root = Path(tempfile.mkdtemp(prefix="memconv-hostile-"))
    MADE.append(root)
    if base:
        shutil.copytree(GOLDEN / BASE[dialect] / "input", root, dirs_exist_ok=True)
    for path, data in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return root


def remove_made() -> None:
    """Remove every store ``store_with`` made: several tests keep theirs to the end."""
    while MADE:
        shutil.rmtree(MADE.pop(), ignore_errors=True)


def convert_everywhere(root: Path, dialect: str) -> dict[str, Report]:
    """The report of converting the store at ``root`` to every dialect, in memory."""
    try:
        store = dialects.get(dialect).read(root)
        out = {}
        for target in dialects.available():
            report = Report(command="convert", input=str(root))
            pipeline.plan(store, target, report)
            out[target] = report
        return out
    finally:
        shutil.rmtree(root, ignore_errors=True)


def quarantined(report: Report) -> dict[str, str]:
    return {q["path"]: q["reason"] for q in report.quarantined}
