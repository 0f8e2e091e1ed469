"""A decision written home (memoir or Claude), shown in memfmt as an episode, and read home again."""

from __future__ import annotations

from pathlib import Path

from memconv.cli import main


def decision_stores(body: str) -> dict[str, tuple[str, str]]:
    """Home dialect → (path of the one file, its text): the decision "A decision" with ``body``."""
    return {
        "memoir": ("memory/decision_d.md",
                   "---\ntype: decision\nname: A decision\ndescription: decided\n---\n\n" + body),
        "claude": ("project_d.md",
                   "---\nname: A decision\ndescription: decided\ntype: project\nmemconv:\n  kind: decision\n---\n\n"
                   + body),
    }


def episode_in_memfmt(runner, tmp_path: Path, home: str, name: str, text: str) -> Path:
    """``text`` written at ``name`` in IN (``tmp_path/in``), converted from ``home`` to memfmt
    (``tmp_path/memfmt``, asserted to exit 0): the decision's episode file there."""
    source = tmp_path / "in"
    (source / name).parent.mkdir(parents=True)
    (source / name).write_text(text, encoding="utf-8")
    out = tmp_path / "memfmt"
    assert runner.invoke(main, ["convert", "--from", home, "--to", "memfmt", str(source), str(out)]).exit_code == 0
    return out / "memory" / "episodes" / "A decision.md"


def home_again(runner, tmp_path: Path, home: str):
    """``tmp_path/memfmt`` converted back to ``home`` at ``tmp_path/back``, asserted to exit 0: the result."""
    result = runner.invoke(main, ["convert", "--from", "memfmt", "--to", home, str(tmp_path / "memfmt"),
                                  str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    return result
