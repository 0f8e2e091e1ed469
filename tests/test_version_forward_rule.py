"""A version newer than memconv knows is quarantined, never guessed; older ones climb the ladder."""

from __future__ import annotations

import json

import pytest

from memconv.cli import main
from memconv.dialects import memoir
from memconv.migrations.memoir import SESSION, session_v0_to_v1

from . import golden
from .conftest import GOLDEN, tree, write_files

FACT = b"---\ntype: fact\nname: Kept\n---\n\nStill here.\n"


def _store(tmp_path, session: bytes | None = None, **entries: bytes):
    root = tmp_path / "in"
    files = {f"memory/{k}.md": v for k, v in entries.items()}
    if session is not None:
        files["session.json"] = session
    write_files(root, files)
    return root


def _convert(runner, root, out, *extra):
    return runner.invoke(main, ["convert", "--from", "memoir", "--to", "memoir", *extra, str(root), str(out)])


def test_session_version_3_is_quarantined_with_its_bytes_a_reason_and_a_distinct_exit(runner, tmp_path):
    session = b'{\n  "version": 3,\n  "current": {"goals": [{"text": "new semantics"}]}\n}'
    root = _store(tmp_path, session, fact_kept=FACT)
    before = tree(root)
    result = _convert(runner, root, tmp_path / "out")
    assert result.exit_code == 3, "quarantine has its own exit status"
    out = tree(tmp_path / "out")
    assert out[".memconv/quarantine/session.json"] == session, "the original bytes are kept"
    assert "session.json" not in out, "nothing is converted from a too-new file"
    assert out["memory/fact_kept.md"] == FACT, "the rest of the store still converts"
    reasons = [line for line in result.stderr.splitlines() if "quarantined session.json" in line]
    assert len(reasons) == 1 and "version 3" in reasons[0] and "knows up to 1" in reasons[0]
    assert tree(root) == before, "the input is unchanged"


@pytest.mark.parametrize("session, why", [
    (b'{"version": "2"}', "not a non-negative integer"),  # the reference tool reads "2" as 0: a trap
    (b'{"version": 1.5}', "not a non-negative integer"),
    (b'{"version": true}', "not a non-negative integer"),
    (b'{"version": 1, "current": ', "not valid JSON"),
    (b'[1, 2]', "not an object"),
])
def test_a_session_whose_version_cannot_be_read_is_quarantined(tmp_path, session, why):
    # Verified by loosening the check to isinstance(version, int): the `true` case fails (bool is an int).
    store = memoir.read(_store(tmp_path, session))
    assert store.working_set is None
    assert [q.path for q in store.quarantined] == ["session.json"]
    assert why in store.quarantined[0].reason


def test_missing_or_zero_version_climbs_to_1(tmp_path):
    for doc in ({"current": {}}, {"version": 0, "current": {}}):
        store = memoir.read(_store(tmp_path / str(len(doc)), json.dumps(doc).encode()))
        assert store.working_set.version == 1
        assert store.migrations == [session_v0_to_v1.DESCRIPTION]


def test_legacy_session_golden_migrates_as_expected():
    # The whole output is a snapshot (tests/test_golden_outputs.py, test_migrate[memoir-legacy-session]);
    # here: the memoir writer gives it as the pipeline does, and the session climbed to version 1.
    base = GOLDEN / "memoir" / "legacy-session"
    files = memoir.write(memoir.read(base / "input"))
    assert files == golden.migrated("memoir", "legacy-session")
    assert json.loads(files["session.json"])["version"] == 1
    assert {p: b for p, b in files.items() if p != "session.json"} == \
        {p: b for p, b in tree(base / "input").items() if p != "session.json"}, "only the session changes"


def test_ladder_step_is_pure():
    document = {"current": {"goals": []}, "zzz": {"kept": True}}
    snapshot = json.dumps(document)
    out = SESSION.steps[0](document)
    assert json.dumps(document) == snapshot, "a ladder step never mutates its input"
    assert list(out)[:2] == ["version", "machines"] and out["zzz"] == {"kept": True}


def test_entry_with_schema_version_2_is_quarantined_and_the_others_convert(runner, tmp_path):
    # Verified by disabling Ladder.check: the future entry is converted and this fails.
    future = b"---\ntype: fact\nschema_version: 2\nname: From the future\n---\n"
    root = _store(tmp_path, fact_future=future, fact_kept=FACT)
    result = _convert(runner, root, tmp_path / "out")
    assert result.exit_code == 3
    out = tree(tmp_path / "out")
    assert out == {".memconv/quarantine/memory/fact_future.md": future, "memory/fact_kept.md": FACT}


def test_a_future_entry_is_told_to_upgrade_memconv_once(runner, tmp_path):
    # The reason says "upgrade memconv to read it"; the hint said "upgrade memconv" again (forty-sixth session).
    root = _store(tmp_path, fact_future=b"---\ntype: fact\nschema_version: 9\nname: x\n---\n")
    result = _convert(runner, root, tmp_path / "out")
    assert result.exit_code == 3
    assert result.output.count("upgrade memconv") == 1, result.output
    assert "fix it by hand" in result.output


@pytest.mark.parametrize("name, raw, says", [
    ("binary", b"\x89PNG\r\n\x1a\n\x00\x00\x00", "is a binary file"),
    ("latin1", b"---\ntype: fact\nname: caf\xe9\n---\n", "is not valid UTF-8"),
    # (``name: [broken``, which YAML refuses, is read as memoir-cli reads it since the forty-seventh session:
    # tests/test_a_memoir_entry_yaml_refuses_is_read_as_memoir_cli_reads_it.py.)
    ("unsafe", b"---\ntype: fact\nname: !!binary eA==\n---\n", "frontmatter refused"),
    ("unclosed", b"---\ntype: fact\nname: x\n", "never closed"),
])
def test_unreadable_entry_gets_a_clear_error_naming_the_file_without_traceback(runner, tmp_path, name, raw, says):
    root = _store(tmp_path, **{f"fact_{name}": raw}, fact_kept=FACT)
    result = _convert(runner, root, tmp_path / "out")
    assert result.exit_code == 3
    assert f"memory/fact_{name}.md" in result.stderr and says in result.stderr
    assert "Traceback" not in result.output + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
