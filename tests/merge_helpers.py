"""Shared helpers for the merge tests: small session documents and stores on disk."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from memconv import dialects
from memconv.merge import merge
from memconv.merge.session import merge_documents

from .conftest import write_files


def doc(created="2026-01-01T00:00:00.000Z", updated="2026-06-01T00:00:00.000Z", machines=None, history=None,
        **current: Any) -> dict:
    """A session.json document as memoir-cli writes it, with the given lists under ``current``."""
    lists = {"goals": [], "next_actions": [], "open_questions": [], "decisions": []}
    lists.update(current)
    return {"version": 1, "created_at": created, "updated_at": updated, "machines": machines or {},
            "current": lists, "history": history or []}


def merged(a: dict, b: dict) -> dict:
    """merge(a, b) of two documents, checked to be commutative on the way (key order included)."""
    one = merge_documents(copy.deepcopy(a), copy.deepcopy(b)).document
    two = merge_documents(copy.deepcopy(b), copy.deepcopy(a)).document
    assert json.dumps(one) == json.dumps(two), "merge(A, B) and merge(B, A) are the same document"
    return one


def texts(items: list) -> list[str]:
    return [i["text"] for i in items]


def session_bytes(document: dict) -> bytes:
    return json.dumps(document, indent=2).encode()


def read_store(root: Path, files: dict[str, bytes | str]):
    write_files(root, {p: (v.encode() if isinstance(v, str) else v) for p, v in files.items()})
    return dialects.get("memoir").read(root)


def merge_trees(tmp_path: Path, a: dict, b: dict):
    """Both stores written under tmp_path, read, and merged both ways: (result A+B, result B+A)."""
    sa = read_store(tmp_path / "a", a)
    sb = read_store(tmp_path / "b", b)
    one = merge(sa, sb)
    two = merge(sb, sa)
    return one, two


def entry(kind="fact", name="X", body="body\n", **fields: str) -> str:
    lines = ["---", f"type: {kind}", f"name: {name}", "description: d"]
    if kind == "lesson":
        lines += ["trigger: t", "how_to_apply: h"]
    lines += [f"{k}: {v}" for k, v in fields.items()]
    return "\n".join(lines) + "\n---\n" + body
