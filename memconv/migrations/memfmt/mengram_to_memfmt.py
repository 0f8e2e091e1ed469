"""memfmt file 0 → 1: the ``mengram_type`` key becomes ``memfmt_type``, in place.

Generation 0 is a file written by Mengram before memfmt was split out of it
(``mengram export markdown``). memfmt reads the old key as an alias and writes
the new one, so the step is a rename: same position, same value, every other
key untouched. An empty ``memfmt_type`` beside it (``memfmt_type:`` or
``memfmt_type: ""``, which memfmt reads as no type) gives way to the renamed key.

The step exists twice on purpose: :func:`step` on the frontmatter mapping (what
the reader climbs), and :func:`step_text` on the file's text (what the writer
applies to an unedited legacy file, so its bytes change by that one key and
nothing else). ``tests/test_memfmt_legacy_migration.py`` asserts they agree.
"""

from __future__ import annotations

from typing import Any

OLD_KEY = "mengram_type"
NEW_KEY = "memfmt_type"

DESCRIPTION = "mengram_type → memfmt_type (files exported by Mengram before memfmt was split out)"


def step(fields: dict[str, Any]) -> dict[str, Any]:
    """A generation-0 frontmatter mapping → generation 1. Pure: ``fields`` is not changed."""
    out: dict[str, Any] = {}
    for key, value in fields.items():
        if key == NEW_KEY and not value:
            continue  # an empty new key is no type at all; the old key's value takes its place
        out[NEW_KEY if key == OLD_KEY else key] = value
    return out


def step_text(text: str) -> str:
    """The same rename on a file's text: only the ``mengram_type:`` line of the frontmatter changes. Its lines may
    end with CRLF (a file's text as it is on disk): each line keeps its own line end."""
    lines = text.split("\n")
    if not lines or lines[0].removesuffix("\r") != "---":
        return text
    out = [lines[0]]
    rest = iter(enumerate(lines[1:], 1))
    for index, line in rest:
        if line.startswith("---"):
            out.extend(lines[index:])
            break
        key, colon, value = line.partition(":")
        if colon and key.strip() == NEW_KEY and _empty(value):
            continue
        if colon and key.strip() == OLD_KEY:
            line = line.replace(OLD_KEY, NEW_KEY, 1)
        out.append(line)
    return "\n".join(out)


def _empty(value: str) -> bool:
    """Whether memfmt reads a frontmatter value as empty: nothing, or the quoted empty string ``""`` (its unquoting
    turns no other text into nothing), so the text step drops the key exactly when :func:`step` does."""
    return value.strip() in ("", '""')
