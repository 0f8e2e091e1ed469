"""A lesson's numbered ``**How to apply:**`` list whose item holds a dash (``Check the canary — look at p99``),
edited with memfmt's own library, comes home on its lines, the dashed item as it was.

memfmt reads a step's line as its action, then its detail after the first `` — ``: the item above is the step
``Check the canary`` with the detail ``look at p99``. memconv made it one step of action alone, so the steps it
worked out at home were not the steps memfmt read, and the way home could not tell which line each step came from.
Found by a hunt (2026-12-07, forty-third session): one other step edited with ``memfmt.load`` / ``serialise``, the
Claude memory came home with its list unchanged and a ``how_to_apply:`` key beside it, which Claude Code reads
first, saying each step's action alone (``Check the canary; Wait 15 minutes; Promote``: "look at p99" gone); the
report said 0 dropped.
"""

from __future__ import annotations

import pytest

from memconv.model import Store

from .convert_helpers import assert_list_landed, convert_files, read_files

_LIST = ("Never deploy on Friday.\n\n**How to apply:**\n1. Check the canary — look at p99\n2. Wait 10 minutes\n"
         "3. Promote\n")


def _store(dialect: str) -> Store:
    if dialect == "claude":
        raw = f"---\nname: Deploy carefully\ndescription: Always check the canary\ntype: feedback\n---\n\n{_LIST}"
        index = "- [Deploy carefully](feedback_deploy.md) — Always check the canary\n"
        return read_files({"feedback_deploy.md": raw.encode(), "MEMORY.md": index.encode()}, "claude")
    raw = ("---\ntype: lesson\nname: Deploy carefully\ndescription: Deploys need care\ntrigger: About to deploy\n"
           f"how_to_apply: Follow the deploy list.\ncreated: 2026-04-11\n---\n\n{_LIST}")
    return read_files({"memory/lesson_deploy.md": raw.encode()}, "memoir")


def _edited_with_memfmt(files: dict[str, bytes], edit) -> dict[str, bytes]:
    """``files`` with the procedure read by ``memfmt``, changed by ``edit`` and written by it, as its users do."""
    import memfmt
    from memfmt.serialize import procedure_file

    (path,) = [p for p in files if p.startswith("memory/procedures/")]
    procedure = memfmt.parse({path.removeprefix("memory/"): files[path].decode()}).procedures[0]
    edit(procedure)
    return {**files, path: procedure_file(procedure).encode()}


def _wait(procedure) -> None:
    (step,) = [s for s in procedure.steps if s.action == "Wait 10 minutes"]
    step.action = "Wait 15 minutes"


def _add(procedure) -> None:
    from memfmt import Step

    at = [s.action for s in procedure.steps].index("Promote")
    procedure.steps.insert(at + 1, Step(action="Announce it"))


@pytest.mark.parametrize("edit, items", [
    (_wait, ["Check the canary — look at p99", "Wait 15 minutes", "Promote"]),
    (_add, ["Check the canary — look at p99", "Wait 10 minutes", "Promote", "Announce it"]),
], ids=["edited", "added"])
@pytest.mark.parametrize("dialect", ["claude", "memoir"])
def test_a_step_edited_beside_one_with_a_dash_lands_on_its_line(dialect, edit, items):
    files, _ = convert_files(_store(dialect), "memfmt")
    back, report = convert_files(read_files(_edited_with_memfmt(files, edit), "memfmt"), dialect)
    (path,) = [p for p in back if p.endswith("_deploy.md")]
    assert_list_landed(back[path].decode(), "Never deploy on Friday.", items, dialect, "Follow the deploy list.")
    assert not [f for f in report.files if f.dropped]


@pytest.mark.parametrize("dialect", ["claude", "memoir"])
def test_a_step_with_a_dash_is_the_step_memfmt_reads(dialect):
    files, _ = convert_files(_store(dialect), "memfmt")
    import memfmt

    (path,) = [p for p in files if p.startswith("memory/procedures/")]
    steps = memfmt.parse({path.removeprefix("memory/"): files[path].decode()}).procedures[0].steps
    assert ("Check the canary", "look at p99") in [(s.action, s.detail) for s in steps]
    back, report = convert_files(read_files(files, "memfmt"), dialect)
    assert back == convert_files(_store(dialect), dialect)[0], "unedited, the way back is exact"
