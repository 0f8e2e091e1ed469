"""A frontmatter key written twice is read as the dialect's own tool reads it (forty-sixth session).

memoir-cli's parser and memfmt's loader let the last line win, as PyYAML does: memoir, Claude Code and memfmt
records are read so. memspec's loader (gray-matter over js-yaml) refuses a key written twice and skips the file
(``memspec status``: "Skipped 1 non-memspec file(s)"): memconv read the last value, and converted a record no
memspec command shows (a ``state: active`` then ``state: retired`` came out retired). It is quarantined now, the
message naming the key and its second line (docs/limits.md).
"""

from __future__ import annotations

import pytest

from memconv import dialects

from .hostile import RECORD_PATH, convert_everywhere, quarantined, record_file, store_with

#: A key written a second time, and where each dialect's reader holds the value that wins.
_TWICE = {"memoir": ("description: second\n", lambda r: r.description),
          "claude": ("description: second\n", lambda r: r.description),
          "memfmt": ("owner: first\nowner: second\n", lambda r: r.extra.get("owner"))}


@pytest.mark.parametrize("dialect", sorted(_TWICE))
def test_the_last_line_of_a_key_written_twice_wins_where_the_tool_reads_it_so(dialect):
    extra, value = _TWICE[dialect]
    root = store_with(dialect, {RECORD_PATH[dialect]: record_file(dialect, extra)})
    store = dialects.get(dialect).read(root)
    assert not store.quarantined, f"{dialect}'s own tool reads a key written twice"
    odd = [r for r in store.records if r.title == "Odd" or r.link in ("fact_odd", "project_odd", "Odd")]
    assert [value(r) for r in odd] == ["second"], "the last line wins, as memoir-cli's and memfmt's parsers read"


def test_a_memspec_record_writing_a_key_twice_is_quarantined_at_its_second_line():
    # Verified by taking ``once=`` out of memspec's read_record: the record converted, its state the last line's.
    path = RECORD_PATH["memspec"]
    root = store_with("memspec", {path: record_file("memspec", "check_by: never\nstate: retired\n")})
    for target, report in convert_everywhere(root, "memspec").items():
        reason = quarantined(report).get(path)
        assert reason is not None, f"memspec skips a file writing a key twice; so does memconv (to {target})"
        assert "'state'" in reason and "twice" in reason, reason
        assert report.exit_code == 3
