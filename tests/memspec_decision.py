"""A memspec store of one live decision ("Use Postgres"), with keys of the test's own in its frontmatter."""

from __future__ import annotations

from pathlib import Path

DECISION_ID = "ms_01KNKQVW20Q194ZEQYAB51HJ9A"


def decision_text(keys: str) -> str:
    """The decision's file: memspec's own keys, then ``keys`` (whole lines), then its title and body."""
    return f"""---
id: {DECISION_ID}
kind: claim
type: decision
state: active
created: '2026-04-03T16:00:00.000Z'
source: agent
tags: []
check_by: '2026-07-02T16:00:00.000Z'
{keys}---
# Use Postgres

Because SQLite locks.
"""


def memspec_decision_store(tmp_path: Path, keys: str) -> Path:
    """IN (``tmp_path/in``): a memspec store holding :func:`decision_text` of ``keys`` alone."""
    store = tmp_path / "in"
    folder = store / ".memspec" / "memory" / "decisions"
    folder.mkdir(parents=True)
    (folder / f"{DECISION_ID}.md").write_text(decision_text(keys), encoding="utf-8")
    return store
