"""Regenerate the expected outputs of the claude golden stores: ``python -m tests.regen``.

For every ``golden/claude/<store>/input`` this writes what ``memconv upgrade``
makes of it to ``expected-memoir/`` and the per-file report to
``expected-upgrade-report.json``. Review the result as a diff (``git diff
golden/``) before committing: a change there is a change in behaviour.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import asdict
from pathlib import Path

from memconv import upgrade as upgrading
from memconv.report import Report

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "claude"


def stores() -> list[Path]:
    return sorted(p for p in GOLDEN.iterdir() if (p / "input").is_dir())


def upgraded(input_dir: Path) -> tuple[dict[str, bytes], Report]:
    report = Report(command="upgrade", input=input_dir.name)
    planned = upgrading.plan(input_dir, report)
    return planned.files, report


def report_json(report: Report) -> str:
    doc = {"files": [asdict(f) for f in report.files], "warnings": report.warnings, "exit_code": report.exit_code}
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def main() -> None:
    for store in stores():
        files, report = upgraded(store / "input")
        expected = store / "expected-memoir"
        shutil.rmtree(expected, ignore_errors=True)
        for path, data in files.items():
            (expected / path).parent.mkdir(parents=True, exist_ok=True)
            (expected / path).write_bytes(data)
        (store / "expected-upgrade-report.json").write_text(report_json(report), encoding="utf-8")
        print(f"regenerated {expected.relative_to(GOLDEN.parent.parent)} ({len(files)} files)")


if __name__ == "__main__":
    main()
