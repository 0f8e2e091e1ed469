"""A memfmt procedure's precondition edited in memoir, Claude or memspec comes home as its precondition.

None of the three has a field for a procedure's preconditions: each shows them as a list under
``**Preconditions:**`` in the body (docs/conversion.md, "Native first"). A line of that list edited there came
home to memfmt as it was, and the report said the edit was dropped ("memfmt's files have no place for them"),
though memfmt has the field. A step edited in the ``**Steps:**`` list beside it already came home.
"""

from __future__ import annotations

from pathlib import Path

import memfmt
import pytest

from .convert_helpers import convert_dir

PROCEDURE = ("---\nmemfmt_type: procedure\nversion: 2\nsuccess_count: 3\nfail_count: 1\n---\n\n"
             "# deploy the api (v2 · 67% reliable)\n\n**When** — a change lands on main\n\n"
             "**Preconditions**\n\n- tests pass\n- pool_max is set\n\n"
             "## Steps\n\n1. push to main (3✓/1✗)\n2. verify /health\n")


@pytest.mark.parametrize("via", ["memoir", "claude", "memspec"])
def test_a_precondition_edited_elsewhere_is_the_precondition_at_home(tmp_path: Path, via: str) -> None:
    # Watched fail before the fix (readable._preconditions_back): memfmt.load gave ["tests pass", "pool_max is set"].
    (tmp_path / "in" / "memory" / "procedures").mkdir(parents=True)
    (tmp_path / "in" / "memory" / "procedures" / "deploy the api.md").write_text(PROCEDURE)
    there = convert_dir(tmp_path / "in", via, tmp_path / "there")
    [file] = [p for p in there.rglob("*.md") if "- tests pass\n" in p.read_text()]
    file.write_text(file.read_text().replace("- tests pass\n", "- all tests pass\n- the migration is applied\n"))
    back = convert_dir(there, "memfmt", tmp_path / "back")
    [procedure] = memfmt.load(back / "memory").procedures
    assert procedure.preconditions == ["all tests pass", "the migration is applied", "pool_max is set"], \
        "a precondition edited where the other dialect shows it is memfmt's precondition at home"
    assert [(s.action, s.success_count) for s in procedure.steps] == [("push to main", 3), ("verify /health", None)]
