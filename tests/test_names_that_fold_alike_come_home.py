"""Two files whose names differ only in case or Unicode form (legal on Linux) come home with their own names.

A record home again (converted away earlier, and back) is named by its link as it was at home. Its writer used
to number the second of two such names (``User_A-2.md``) as it numbers a record arriving from another dialect,
so the round trip changed a file's name and left the index line and every ``[[link]]`` to it dangling. Now it
keeps the name, as it keeps its own file's, and says the clash (``Occasion.home``; docs/conversion.md).
"""

from __future__ import annotations

import unicodedata

import pytest

from memconv.cli import main

from .conftest import round_trip, tree, write_files

_CLAUDE = {
    "MEMORY.md": b"# Memory Index\n\n- [A](user_a.md) \xe2\x80\x94 one\n- [A](User_A.md) \xe2\x80\x94 two\n",
    "user_a.md": b"---\nname: A\ndescription: lower\ntype: user\n---\n\nSee [[User_A|the other]].\n",
    "User_A.md": b"---\nname: A\ndescription: upper\ntype: user\n---\n\nSee [[user_a]].\n",
}
_MEMOIR = {
    "memory/fact_caf\u00e9.md": "---\ntype: fact\nname: NFC\ndescription: composed\ncreated: 2026-05-02\n---\n\nOne\n",
    "memory/fact_cafe\u0301.md": "---\ntype: fact\nname: NFD\ndescription: decomposed\ncreated: 2026-05-02\n---\n\nTwo\n",
    "memory/fact_Foo.md": "---\ntype: fact\nname: Foo\ndescription: upper\ncreated: 2026-05-02\n---\n\nUpper\n",
    "memory/fact_foo.md": "---\ntype: fact\nname: foo\ndescription: lower\ncreated: 2026-05-02\n---\n\nLower\n",
}
_STORES = {"claude": _CLAUDE, "memoir": {path: text.encode() for path, text in _MEMOIR.items()}}


def _convert(runner, source: str, target: str, inp, out):
    result = runner.invoke(main, [f"{source}-to-{target}", "--json", str(inp), str(out)])
    assert result.exit_code == 0, result.output
    return result


@pytest.mark.parametrize("home", ["claude", "memoir"])
@pytest.mark.parametrize("away", ["claude", "memoir", "memspec", "memfmt"])
def test_names_that_fold_alike_come_home_as_they_were(runner, tmp_path, home, away):
    # Verified by leaving out ``id(record) in context.home`` in claude's and memoir's _place: User_A-2.md,
    # fact_cafe\u0301-2.md and fact_foo-2.md come home.
    if away == home:
        pytest.skip("a round trip goes through another dialect")
    _, back = round_trip(runner, tmp_path, _STORES[home], home, away)
    assert tree(tmp_path / "back") == tree(tmp_path / "in")
    assert "only in case or Unicode normalisation: kept as it is" in back.output, "the clash is still said"


def test_names_that_fold_alike_arriving_from_elsewhere_are_still_numbered(runner, tmp_path):
    # Not home: in a Claude folder two memories of names that fold alike would be one file on macOS.
    inp = tmp_path / "in"
    write_files(inp, _STORES["memoir"])
    _convert(runner, "memoir", "claude", inp, tmp_path / "out")
    names = [path for path in tree(tmp_path / "out") if path.endswith(".md") and "/" not in path]
    folded = [unicodedata.normalize("NFC", name).casefold() for name in names]
    assert len(set(folded)) == len(folded), names


def test_a_carry_bringing_a_record_home_under_the_index_name_is_refused(runner, tmp_path):
    # A crafted carry (IN is untrusted) names a Claude memory MEMORY: home again it would keep that name, over the
    # index. Verified by letting an own name through Names.place even when reserved: exit 4, MEMORY.md twice.
    # Since 2026-12-04 the carried link is checked first, by the rule claude's reader reads memory files by
    # (takes_link): the carry is refused, the record converted as it stands, and never written as the index.
    inp = tmp_path / "in"
    write_files(inp, {"memory/fact_r.md": b'---\ntype: fact\nname: R\ndescription: d\nmemconv: "{\\"v\\":1,'
                                          b'\\"from\\":\\"claude\\",\\"fields\\":{\\"link\\":\\"MEMORY\\"},'
                                          b'\\"native\\":{}}"\ncreated: 2026-01-01\n---\n\nBody\n'})
    result = _convert(runner, "memoir", "claude", inp, tmp_path / "out")
    assert "the carried link 'MEMORY' is not a name claude reads a record by" in result.output
    assert b"Body" not in (tmp_path / "out" / "MEMORY.md").read_bytes()
    assert [p.name for p in (tmp_path / "out").glob("*.md") if b"Body" in p.read_bytes()] == ["reference_r.md"]
