"""Stores the detect and refusal tests share: made by the formats' own tools (see fixtures/detect/README.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

import memfmt

from .conftest import GOLDEN

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "detect"


def memfmt_store(root: Path) -> Path:
    """A memfmt store as the memfmt library writes one: ``root/memory/…``."""
    memory = memfmt.Memory(entities=[memfmt.Entity("Ana", facts=["prefers tea"])],
                           episodes=[memfmt.Episode("deploy failed on a cold pool", happened="2026-07-30")],
                           profile="terse")
    memfmt.write_dir(memfmt.serialise(memory, generated="2026-01-01"), root)
    return root


def two_stores(root: Path) -> Path:
    """A project holding two stores side by side: memspec's `.memspec/` and memfmt's `memory/`."""
    shutil.copytree(FIXTURES / "memspec-project", root)
    memfmt_store(root)
    return root


def project_folder(root: Path, store: str = "canonical") -> Path:
    """A Claude Code project folder (`~/.claude/projects/<slug>/`): a session transcript beside `memory/`."""
    shutil.copytree(GOLDEN / "claude" / store / "input", root / "memory")
    (root / "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0.jsonl").write_text('{"type":"user"}\n')
    return root
