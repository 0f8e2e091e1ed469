"""memconv's own ``archive/.gitkeep`` does not come home as a file of the store once memspec writes beside it.

memconv's memspec writer puts an empty ``.gitkeep`` in ``archive/`` and ``observations/`` when nothing else lands
there (memspec's ``supersede`` and ``sweep`` fail without ``archive/``). The reader took it for the writer's only
while it was alone: once memspec's own ``supersede``, ``sweep`` or ``observe`` put a record beside it, it was "someone's
own", carried home to Claude, memoir or memfmt as ``.memconv/files/memspec/.memspec/archive/.gitkeep``, counted among
the other files kept, and an import ``--into`` the original said ``added … from IN`` of a file nobody wrote. An
empty keep file of those folders holds no memory whoever wrote it: the reader never makes it a file of the store; a
memspec store that has one beside its records gets it back from the memspec writer (``Store.meta["kept"]``).
"""

from __future__ import annotations

import json
import shutil

from memconv.cli import main

from .conftest import GOLDEN, tree
from .reference_tools import memspec, memspec_load, needs_memspec

KEEP = ".memspec/archive/.gitkeep"
CARRIED = ".memconv/files/memspec/" + KEEP


@needs_memspec
def test_a_claim_superseded_by_memspec_beside_the_keep_file_leaves_no_file_at_home(runner, tmp_path):
    # Watched fail: the Claude folder held .memconv/files/memspec/.memspec/archive/.gitkeep ("1 other file(s) kept").
    source = GOLDEN / "claude" / "canonical" / "input"
    out = tmp_path / "ms"
    assert runner.invoke(main, ["claude-to-memspec", str(source), str(out)]).exit_code == 0
    assert (out / KEEP).is_file(), "nothing else lands in archive/: memconv's keep file holds it"
    claim = next(i for i in memspec_load(out).items if i["state"] == "active")
    done = memspec(out, "supersede", claim["id"], "--reason", "retracted in a test")
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(list((out / ".memspec" / "archive").iterdir())) == 2, "memspec archived the claim beside it"

    checked = runner.invoke(main, ["check", "--json", "--from", "memspec", str(out)])
    assert checked.exit_code == 0, checked.output  # the store memspec edited checks clean, the keep file kept

    result = runner.invoke(main, ["memspec-to-claude", "--json", str(out), str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    assert not any(path.endswith(".gitkeep") for path in tree(tmp_path / "back")), "no keep file comes home"
    assert json.loads(result.stdout)["counts"]["foreign"] == 0, "nor is one counted among the other files"

    home = tmp_path / "home"
    shutil.copytree(source, home)
    result = runner.invoke(main, ["memspec-to-claude", "--json", str(out), "--into", str(home)])
    assert result.exit_code == 0, result.output
    assert not (home / CARRIED).exists() and CARRIED not in result.output, "the import adds no such file"


def test_a_memspec_store_keeps_its_keep_file_beside_its_records(runner, tmp_path):
    store = tmp_path / "project"
    shutil.copytree(GOLDEN / "memspec" / "canonical" / "input", store)
    [record] = sorted((store / ".memspec" / "memory" / "decisions").glob("*.md"))
    (store / ".memspec" / "archive").mkdir()
    (store / KEEP).write_bytes(b"")
    moved = store / ".memspec" / "archive" / record.name
    moved.write_text(record.read_text(encoding="utf-8").replace("\nstate: active\n", "\nstate: retired\n"),
                     encoding="utf-8")
    record.unlink()

    for via in ([], ["--via", "claude"]):
        # memspec to memspec: written again, in its place; through Claude: left out, and no difference (no memory)
        result = runner.invoke(main, ["check", "--json", "--from", "memspec", *via, str(store)])
        assert result.exit_code == 0, result.output
    result = runner.invoke(main, ["merge", str(store), str(store), str(tmp_path / "merged")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "merged" / KEEP).is_file(), "a merge keeps it too"
    result = runner.invoke(main, ["memspec-to-memoir", "--json", str(store), str(tmp_path / "memoir")])
    assert result.exit_code == 0, result.output
    assert not any(path.endswith(".gitkeep") for path in tree(tmp_path / "memoir"))
