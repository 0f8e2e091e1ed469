"""``check --via`` says in plain words when a file would change in memconv's carry alone (docs/cli.md, ``check --via``).

A memoir store converted to memspec, one claim retracted with memspec's own ``supersede``, then checked through
memoir (``memconv check --via memoir``): the retracted claim comes home to memoir as a note holding its state, and
back in memspec its carry now holds that state as the memoir copy's own (``"lifecycle"``). memspec reads the file
alike, and it converts to the same files in every dialect; the report said only "1 file(s) would change", with a
diff of a JSON string, as if something had been lost. The difference stays one (the bytes would change, exit 1);
a notice of kind ``carry-only`` now says it is the carry alone and what it gains.
"""

from __future__ import annotations

import json
from pathlib import Path

from memconv.cli import main

from .reference_tools import memspec, memspec_load, needs_memspec

STORE = {
    "memory/fact_ana.md": "---\ntype: fact\nname: Ana\ndescription: A person\n---\n\nAna writes Rust.\n",
    "memory/fact_bob.md": "---\ntype: fact\nname: Bob\ndescription: A person\n---\n\nBob is tall.\n",
}


def _retracted(runner, tmp_path: Path) -> tuple[Path, str]:
    """The memoir store converted to memspec, Bob retracted there with memspec's CLI: (project, Bob's archived file)."""
    src = tmp_path / "in"
    for path, text in STORE.items():
        (src / path).parent.mkdir(parents=True, exist_ok=True)
        (src / path).write_text(text)
    ms = tmp_path / "ms"
    assert runner.invoke(main, ["memoir-to-memspec", "-q", str(src), str(ms)]).exit_code == 0
    bob = next(i for i in memspec_load(ms).items if i["title"] == "Bob")
    done = memspec(ms, "supersede", bob["id"], "--reason", "stale")
    assert done.returncode == 0, done.stdout + done.stderr
    return ms, f".memspec/archive/{bob['id']}.md"


def _check(runner, *args):
    result = runner.invoke(main, ["check", "--json", *map(str, args)])
    return result.exit_code, json.loads(result.stdout)


@needs_memspec
def test_a_retracted_claims_carry_gaining_its_state_is_said_to_be_the_carry_alone(runner, tmp_path):
    ms, archived = _retracted(runner, tmp_path)
    code, report = _check(runner, "--via", "memoir", ms)
    assert code == 1, "the bytes would change"
    assert [d["path"] for d in report["differences"]] == [archived]
    [said] = [n for n in report["notices"] if n["kind"] == "carry-only"]
    assert said["path"] == archived
    assert said["message"] == ("would change in memconv's carry alone, nothing memspec reads: the carry of its "
                               "memoir copy would gain lifecycle, as that copy holds it after the round trip; "
                               "nothing is dropped"), said["message"]


@needs_memspec
def test_a_difference_in_what_memspec_reads_is_not_said_to_be_the_carry(runner, tmp_path):
    ms, archived = _retracted(runner, tmp_path)
    [ana] = (ms / ".memspec" / "memory" / "facts").glob("*.md")
    ana.write_text(ana.read_text().replace("\ntags: []\n", "\ntags: [ ]\n"))  # written back as []: the carry alike
    code, report = _check(runner, "--via", "memoir", ms)
    live = ana.relative_to(ms).as_posix()
    assert code == 1 and sorted(d["path"] for d in report["differences"]) == sorted([archived, live])
    assert [n["path"] for n in report["notices"] if n["kind"] == "carry-only"] == [archived]


@needs_memspec
def test_a_body_edited_in_memspec_changes_the_carry_of_its_memoir_copy_and_says_so(runner, tmp_path):
    ms, archived = _retracted(runner, tmp_path)
    path = ms / archived
    path.write_text(path.read_text().replace("Bob is tall.", "Bob is taller."))
    code, report = _check(runner, "--via", "memoir", ms)
    assert code == 1 and [d["path"] for d in report["differences"]] == [archived]
    [said] = [n for n in report["notices"] if n["kind"] == "carry-only"]
    assert said["message"].endswith("would gain lifecycle and change body, as that copy holds it after the round "
                                    "trip"), said["message"]
