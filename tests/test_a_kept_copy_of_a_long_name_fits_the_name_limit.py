"""A file memconv keeps as IN had it (a quarantined original, a file carried from another dialect) is kept under a
name a disk takes, whatever the length of its own, and the report says where.

Two ways it was not (the forty-sixth session). In a Claude folder a kept ``.md`` file gains ``.kept`` (so that
``recall`` skips it): a name of 251-255 bytes, valid in IN, became 256-260, and the whole conversion was refused,
exit 4 ("refusing to write '.memconv/quarantine/memory/fact_aaa….md.kept': a name in it is longer than 255
bytes"), for one file it could not read. And a quarantined original whose place was taken was numbered
(``-2``) past 255 bytes, so no copy was kept at all ("its name is not safe to write"): its bytes were in no file
of OUT. The rule, in ``fs.quarantine_path``: the stem is cut, at a whole character, so that the name written
(its dialect's ``KEPT_SUFFIX`` included) fits; a carried file whose written name would not fit is set aside in
the quarantine folder by that rule, with a warning naming where.
"""
import json
import shutil

import pytest

from memconv import fs
from memconv.cli import main

from .conftest import GOLDEN

LONG = "a" * 247  # memory/fact_<247>.md: a 255-byte name, 260 with .kept


def _names_fit(out):
    return [p.name for p in out.rglob("*") if len(p.name.encode()) > fs.MAX_NAME_BYTES] == []


def _written(out):
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def _memoir(root, extra):
    shutil.copytree(GOLDEN / "memoir" / "canonical" / "input", root)
    for rel, data in extra.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)


def test_a_quarantined_original_of_a_long_name_is_kept_in_a_claude_folder(runner, tmp_path):
    bad = b"\xff bad"
    _memoir(tmp_path / "in", {f"memory/fact_{LONG}.md": bad})
    result = runner.invoke(main, ["memoir-to-claude", str(tmp_path / "in"), str(tmp_path / "out"), "--json"])
    assert result.exit_code == 3, "one file quarantined is exit 3, not the whole run refused: " + result.output
    [q] = json.loads(result.stdout)["quarantined"]
    written = _written(tmp_path / "out")
    assert written.get(q["kept_at"]) == bad, f"the report names where the copy is: {q['kept_at']}"
    assert q["kept_at"].endswith(".md.kept"), "still named so that recall skips it"
    assert _names_fit(tmp_path / "out")
    home = runner.invoke(main, ["claude-to-memoir", str(tmp_path / "out"), str(tmp_path / "home")])
    assert home.exit_code == 0, home.output
    assert bad in _written(tmp_path / "home").values(), "the copy comes home with its bytes"


def test_a_carried_file_of_a_long_name_is_set_aside_under_a_name_that_fits(runner, tmp_path):
    """A vault's own ``.md`` of a 253-byte name, carried into Claude as ``.memconv/files/memfmt/<name>.md.kept``
    (258 bytes). It was refused, exit 4 (the twentieth session's rule); now kept aside, said."""
    shutil.copytree(GOLDEN / "memfmt" / "vault" / "input", tmp_path / "in")
    name = "a" * 249 + ".md"
    (tmp_path / "in" / name).write_bytes(b"hello, long name\n")
    result = runner.invoke(main, ["memfmt-to-claude", str(tmp_path / "in"), str(tmp_path / "out"), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    [said] = [w for w in report["warnings"] if name in w]
    kept = said.rsplit("kept aside at ", 1)[1].split(" ")[0].rstrip(";,")
    assert _written(tmp_path / "out").get(kept) == b"hello, long name\n", (said, kept)
    assert kept.endswith(".md.kept"), kept
    assert _names_fit(tmp_path / "out")


def test_a_quarantined_original_numbered_past_the_limit_is_still_kept_by_a_merge(runner, tmp_path):
    """A's earlier run's copy holds ``.memconv/quarantine/memory/fact_<247>.md``: the file quarantined again is
    numbered, ``…-2.md``, 257 bytes. No copy was kept."""
    bad = b"---\nname: X\n---\n\xff not UTF-8\n"
    earlier = b"an earlier run's copy\n"
    _memoir(tmp_path / "a", {f"memory/fact_{LONG}.md": bad, f".memconv/quarantine/memory/fact_{LONG}.md": earlier})
    _memoir(tmp_path / "b", {})
    result = runner.invoke(main, ["merge", str(tmp_path / "a"), str(tmp_path / "b"), str(tmp_path / "out"), "--json"])
    assert result.exit_code == 3, result.output
    [q] = json.loads(result.stdout)["quarantined"]
    written = _written(tmp_path / "out")
    assert "no copy was kept" not in q["reason"], q
    assert written.get(q["kept_at"]) == bad, f"the report names where the copy is: {q}"
    assert written.get(f".memconv/quarantine/memory/fact_{LONG}.md") == earlier
    assert _names_fit(tmp_path / "out")


def test_the_place_given_fits_once_named_and_comes_back_as_given():
    """The one rule: the name written, ``kept_name`` of the place, fits; ``kept_path`` gives the place back."""
    for stem, taken in (("é" * 125, {}), ("a" * 250, {}), ("a" * 245, {f".memconv/quarantine/{'a' * 245}.md": b""})):
        place = fs.quarantine_path(f"{stem}.md", taken, suffix=".kept")
        assert place is not None and place not in taken, place
        written = fs.kept_name(place, ".kept")
        assert fs.path_problem(written) is None, written
        assert fs.kept_path(written, ".kept") == place and place.endswith(".md")
    assert fs.quarantine_path("x.md", {}, suffix=".kept") == ".memconv/quarantine/x.md", "a short name is as it was"


def test_an_upgrade_sets_aside_a_kept_file_whose_kept_name_would_not_fit(runner, tmp_path):
    """A Claude folder holding ``.memconv/quarantine/<251 bytes>.md`` (an output written before ``.kept`` was):
    the upgrade wrote it again as ``….md.kept``, 256 bytes, and refused the whole upgrade, exit 4."""
    root = tmp_path / "in"
    shutil.copytree(GOLDEN / "claude" / "canonical" / "input", root)
    name = "q" * 248 + ".md"
    (root / ".memconv" / "quarantine").mkdir(parents=True)
    (root / ".memconv" / "quarantine" / name).write_bytes(b"an older run's copy\n")
    result = runner.invoke(main, ["upgrade", str(root), str(tmp_path / "out"), "--json"])
    assert result.exit_code == 0, "one kept file does not stop the upgrade: " + result.output
    [report] = [f for f in json.loads(result.stdout)["files"] if f["source"] == f".memconv/quarantine/{name}"]
    assert "kept aside at" in " ".join(report["warnings"]), report
    assert _written(tmp_path / "out").get(report["target"]) == b"an older run's copy\n", report
    assert report["target"].endswith(".md.kept"), "still named so that recall skips it"
    assert _names_fit(tmp_path / "out")


@pytest.mark.parametrize("store, files", [("claude/canonical", ".memconv/files/memfmt"),
                                          ("memspec/canonical", ".memspec/.memconv/files/memoir"),
                                          ("memfmt/full", ".memconv/files/memoir")])
def test_a_merge_conflict_copy_of_a_long_kept_name_fits(runner, tmp_path, store, files):
    """Two folders carrying ``.memconv/files/memfmt/<247 bytes>.md.kept`` with different bytes: the conflict
    copy's stem was cut for ``….conflict-<hash>.md``, and ``.kept`` then took it to 260 bytes: exit 4. (Forty-seventh
    session: memspec and memfmt name their kept copies so too, and their merges cut the copy's name as Claude's.)"""
    name = "a" * 244 + ".md"
    for side in ("a", "b"):
        shutil.copytree(GOLDEN / store / "input", tmp_path / side)
        (tmp_path / side / files).mkdir(parents=True)
        (tmp_path / side / files / f"{name}.kept").write_bytes(f"{side} side\n".encode())
    result = runner.invoke(main, ["merge", str(tmp_path / "a"), str(tmp_path / "b"), str(tmp_path / "out")])
    assert result.exit_code == 6, "a conflict, both copies kept, not the whole merge refused: " + result.output
    kept = {data: path for path, data in _written(tmp_path / "out").items() if path.startswith(files)}
    assert set(kept) == {b"a side\n", b"b side\n"}, "both sides' bytes are kept"
    assert all(path.endswith(".md.kept") for path in kept.values()), "both named so that recall skips them"
    assert _names_fit(tmp_path / "out")
    from memconv.merge.memoir import Tree
    short = Tree(".kept").conflict_path(".memconv/files/memfmt/x.md", b"x")
    assert short.startswith(".memconv/files/memfmt/x.conflict-") and short.endswith(".md"), "a short name is as it was"


def test_an_import_keeps_ins_quarantined_original_beside_existings_under_a_name_that_fits(runner, tmp_path):
    """``--into`` a Claude folder: IN's quarantined original goes beside the copy an earlier import kept
    (``.memconv/quarantine/memory/fact_<cut>.md.kept``, 255 bytes), numbered. The number went on the name as
    written, ``….md-2.kept``, 257 bytes: the import was refused, exit 4."""
    _memoir(tmp_path / "in", {f"memory/fact_{LONG}.md": b"\xff first\n"})
    existing = tmp_path / "existing"
    shutil.copytree(GOLDEN / "claude" / "canonical" / "input", existing)
    first = runner.invoke(main, ["memoir-to-claude", str(tmp_path / "in"), "--into", str(existing)])
    assert first.exit_code == 3, first.output
    (tmp_path / "in" / "memory" / f"fact_{LONG}.md").write_bytes(b"\xff second\n")
    second = runner.invoke(main, ["memoir-to-claude", str(tmp_path / "in"), "--into", str(existing), "--json"])
    assert second.exit_code == 3, "one file quarantined is exit 3, not the whole import refused: " + second.output
    kept = {p: b for p, b in _written(existing).items() if p.startswith(".memconv/quarantine/")}
    [q] = json.loads(second.stdout)["quarantined"]
    assert kept.get(q["kept_at"]) == b"\xff second\n", f"the report names where IN's copy is: {q['kept_at']}"
    assert sorted(kept.values()) == [b"\xff first\n", b"\xff second\n"], "both copies are kept"
    assert all(p.endswith(".md.kept") for p in kept), f"named so that recall skips them: {sorted(kept)}"
    assert _names_fit(existing)


def test_a_claude_merge_report_names_a_kept_file_and_its_conflict_copy_as_written(runner, tmp_path):
    """The report of a Claude merge named a carried ``.md`` file and its conflict copy by their places
    (``x.md``, ``x.conflict-<hash>.md``): neither is a file of OUT, where both end in ``.md.kept``."""
    for side in ("a", "b"):
        shutil.copytree(GOLDEN / "claude" / "canonical" / "input", tmp_path / side)
        (tmp_path / side / ".memconv" / "files" / "memfmt").mkdir(parents=True)
        (tmp_path / side / ".memconv" / "files" / "memfmt" / "x.md.kept").write_bytes(f"{side} side\n".encode())
    result = runner.invoke(main, ["merge", str(tmp_path / "a"), str(tmp_path / "b"), str(tmp_path / "out"), "--json"])
    assert result.exit_code == 6, result.output
    [o] = [o for o in json.loads(result.stdout)["records"] if o["status"] == "conflict"]
    written = _written(tmp_path / "out")
    assert written.get(o["where"]) == b"b side\n", f"the report names the file kept: {o['where']}"
    assert written.get(o["conflict_copy"]) == b"a side\n", f"the report names the copy: {o['conflict_copy']}"


def test_a_merge_sets_aside_a_kept_file_whose_kept_name_would_not_fit(runner, tmp_path):
    """A Claude folder holding ``.memconv/quarantine/<251 bytes>.md`` (an output written before ``.kept`` was),
    merged: written as ``….md.kept``, 256 bytes, it refused the whole merge, exit 4. Set aside as ``convert``
    sets it aside (``dialects.passed_through``)."""
    name = "q" * 248 + ".md"
    for side in ("a", "b"):
        shutil.copytree(GOLDEN / "claude" / "canonical" / "input", tmp_path / side)
    (tmp_path / "a" / ".memconv" / "quarantine").mkdir(parents=True)
    (tmp_path / "a" / ".memconv" / "quarantine" / name).write_bytes(b"an older run's copy\n")
    result = runner.invoke(main, ["merge", str(tmp_path / "a"), str(tmp_path / "b"), str(tmp_path / "out"), "--json"])
    assert result.exit_code == 0, "one kept file does not stop the merge: " + result.output
    [said] = [w for w in json.loads(result.stdout)["warnings"] if name in w]
    kept = said.rsplit("kept aside at ", 1)[1]
    assert _written(tmp_path / "out").get(kept) == b"an older run's copy\n", said
    assert kept.endswith(".md.kept"), "still named so that recall skips it"
    assert _names_fit(tmp_path / "out")
    # Imported into, the folder keeps its own file and the copy set aside: the next import finds that copy in place.
    for _ in range(2):
        result = runner.invoke(main, ["memoir-to-claude", str(GOLDEN / "memoir" / "canonical" / "input"),
                                      "--into", str(tmp_path / "a")])
        assert result.exit_code == 0, result.output
    copies = [p for p, data in _written(tmp_path / "a").items() if data == b"an older run's copy\n"]
    assert len(copies) == 2, f"the file and one copy set aside, however many imports: {copies}"
