"""``merge`` keeps each quarantined original by the one rule a conversion keeps it (``fs.quarantine_path``): never
over another file, a ``\\`` in its name spelled ``%5C``, and the report says where each copy went.

The merge placed a quarantined original at ``.memconv/quarantine/<path>`` by a rule of its own. A store holding an
earlier run's copy there (a file it carries) and a file quarantined again under that name lost the earlier copy
from OUT without a word, exit 3; a file whose name holds a ``\\`` (quarantined by every reader) stopped the whole
merge, exit 4 ("refusing to write …fact_c\\\\x.md"), where ``convert`` keeps it as ``fact_c%5Cx.md``, exit 3.
"""
import json

from memconv.cli import main


def _store(root, extra):
    (root / "memory").mkdir(parents=True)
    (root / "memory" / "fact_b.md").write_text("---\nname: B\ntype: fact\n---\nok\n")
    for rel, data in extra.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)


def _merge(runner, tmp_path):
    result = runner.invoke(main, ["merge", str(tmp_path / "a"), str(tmp_path / "b"), str(tmp_path / "out"), "--json"])
    assert result.exit_code == 3, result.output
    return json.loads(result.stdout)


def _written(out):
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def test_an_earlier_runs_copy_and_a_file_quarantined_again_under_its_name_are_both_kept(runner, tmp_path):
    bad = b"---\nname: X\ntype: fact\n---\n\xff not UTF-8\n"
    earlier = b"an earlier run's copy\n"
    _store(tmp_path / "a", {"memory/fact_x.md": bad, ".memconv/quarantine/memory/fact_x.md": earlier})
    _store(tmp_path / "b", {})
    report = _merge(runner, tmp_path)
    written = _written(tmp_path / "out")
    assert written.get(".memconv/quarantine/memory/fact_x.md") == earlier, "the earlier copy is carried as it was"
    [q] = report["quarantined"]
    assert q["kept_at"] != ".memconv/quarantine/memory/fact_x.md", q
    assert written.get(q["kept_at"]) == bad, f"the report names where the original went: {q}, {sorted(written)}"


def test_both_sides_quarantining_one_name_each_say_where_their_copy_went(runner, tmp_path):
    _store(tmp_path / "a", {"memory/fact_x.md": b"---\nname: X\n---\n\xff a\n"})
    _store(tmp_path / "b", {"memory/fact_x.md": b"---\nname: X\n---\n\xff b\n"})
    report = _merge(runner, tmp_path)
    written = _written(tmp_path / "out")
    kept = {q["side"]: q["kept_at"] for q in report["quarantined"]}
    assert written.get(kept["A"]) == b"---\nname: X\n---\n\xff a\n", (kept, sorted(written))
    assert written.get(kept["B"]) == b"---\nname: X\n---\n\xff b\n", (kept, sorted(written))


def test_a_name_holding_a_backslash_is_kept_as_convert_keeps_it(runner, tmp_path):
    data = b"---\nname: C\ntype: fact\n---\nok\n"
    _store(tmp_path / "a", {"memory/fact_c\\x.md": data})
    _store(tmp_path / "b", {})
    report = _merge(runner, tmp_path)
    [q] = report["quarantined"]
    assert q["kept_at"] == ".memconv/quarantine/memory/fact_c%5Cx.md", q
    assert _written(tmp_path / "out")[q["kept_at"]] == data


def test_an_import_leaves_existings_own_quarantined_files_and_its_earlier_copies_as_they_are(runner, tmp_path):
    """``--into`` drops the merge's copies of EXISTING's quarantined files (they stay where they are) where the
    merge put them. It spelled that place again, ``.memconv/quarantine/<path>``, and so deleted the earlier copy
    EXISTING carried there (the swap leaves out a file that was read), exit 3, nothing said; after the merge's own
    fix, it wrote a second copy of each of EXISTING's quarantined files into EXISTING."""
    _store(tmp_path / "ex", {"memory/fact_x.md": b"---\nname: X\ntype: fact\n---\n\xff bad\n",
                             ".memconv/quarantine/memory/fact_x.md": b"an earlier run's copy\n",
                             "memory/fact_y\\z.md": b"---\nname: Y\ntype: fact\n---\nok\n"})
    (tmp_path / "in" / "memory").mkdir(parents=True)
    (tmp_path / "in" / "memory" / "fact_c.md").write_text("---\nname: C\ntype: fact\n---\nnew\n")
    before = _written(tmp_path / "ex")
    result = runner.invoke(main, ["convert", "--from", "memoir", "--to", "memoir", str(tmp_path / "in"),
                                  "--into", str(tmp_path / "ex")])
    assert result.exit_code == 3, result.output
    after = _written(tmp_path / "ex")
    assert {p: b for p, b in after.items() if p in before} == before, "every file of EXISTING is as it was"
    assert sorted(set(after) - set(before)) == [".memconv/imports.json", "memory/fact_c.md"], sorted(after)
