"""An upgrade writes the link that replaces an inline bullet of MEMORY.md with the bullet's own marker and indent.

`- Backend` then `  - Uses Postgres 16` says Postgres is the backend's. Each inline bullet becomes a fact, and
the bullet's lines a link line to it; that line was always `- [..](fact_x.md)` at the margin, so the nested list
came out flat (and a `+`/`*` list another list), and the index no longer said which bullet belonged to which,
exit 0 and nothing said. The facts and their link lines are as before; only the marker and indent are kept.
"""

from __future__ import annotations

from memconv import upgrade as upgrading
from memconv.report import Report

from .claude_support import write

INDEX = b"# Notes\n\n## Stack\n- Backend\n  - Uses Postgres 16\n\t* Deploys on Fly\n+ Frontend\n"


def _upgraded(root, tmp_path):
    return upgrading.plan(root, Report(command="upgrade", input=str(root)), "flat").files


def test_nested_bullets_stay_nested_as_links(tmp_path):
    files = _upgraded(write({"MEMORY.md": INDEX}, tmp_path / "in"), tmp_path)
    assert files["MEMORY.md"].decode("utf-8") == (
        "# Notes\n\n## Stack\n- [Backend](fact_backend.md)\n  - [Uses Postgres 16](fact_uses-postgres-16.md)\n"
        "\t* [Deploys on Fly](fact_deploys-on-fly.md)\n+ [Frontend](fact_frontend.md)\n")


def test_a_second_upgrade_changes_nothing(tmp_path):
    once = _upgraded(write({"MEMORY.md": INDEX}, tmp_path / "in"), tmp_path)
    assert _upgraded(write(once, tmp_path / "again"), tmp_path) == once
