"""memoir ``session.json`` ↔ the working set (spec v0.1.2 §4, §6).

The file is read through the session ladder: unversioned files climb to 1; a
version that is newer, or that is not an integer, is refused and the caller
quarantines it. Written back unchanged, it is the bytes it was read from;
changed, it is laid out as the source was (indent, final newline), and by
default as memoir-cli writes it: ``JSON.stringify(state, null, 2)``, 2-space
indent, no final newline.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ...errors import ReadError
from ...limits import load_json
from ...migrations import VersionProblem
from ...migrations.memoir import SESSION, session_version
from ...model import Source, WorkingSet
from ...text import TextLayout, decode, encode

NAME = "memoir"
PATH = "session.json"


@dataclass(frozen=True)
class SessionLayout:
    #: Indent of nested lines (``"  "``), or None for a one-line document.
    indent: str | None = "  "
    final_newline: bool = False
    text: TextLayout = TextLayout()


def read_session(raw: bytes, path: str = PATH) -> tuple[WorkingSet, list[str]]:
    """Bytes of session.json → the working set at the current version, and the steps climbed."""
    text, text_layout = decode(raw, path)
    try:
        document = load_json(text)
    except json.JSONDecodeError as exc:
        raise ReadError(path, f"is not valid JSON: {exc.msg} (column {exc.colno})", line=exc.lineno,
                        hint="fix the JSON; memconv converts nothing from a file it cannot parse") from None
    except ValueError as exc:  # over a bound of memconv.limits
        raise ReadError(path, f"refused: {exc}", hint="see docs/limits.md") from None
    try:
        version = session_version(document)
        migrated, steps = SESSION.climb(document, version)
    except VersionProblem as exc:
        raise ReadError(path, exc.reason) from None
    working_set = WorkingSet(document=migrated)
    working_set.source = Source(dialect=NAME, path=path, version=version, raw=raw,
                                fingerprint=_fingerprint(document), layout=_layout(text, text_layout))
    return working_set, steps


def _layout(text: str, text_layout: TextLayout) -> SessionLayout:
    m = re.search(r"\n([ \t]+)\S", text)
    return SessionLayout(indent=m.group(1) if m else None, final_newline=text.endswith("\n"), text=text_layout)


def _fingerprint(document: Any) -> str:
    return json.dumps(document, ensure_ascii=False)


def write_session(working_set: WorkingSet) -> bytes:
    source = working_set.source
    if source is not None and source.dialect == NAME and source.has_raw \
            and source.fingerprint == _fingerprint(working_set.document):
        return source.raw
    layout = source.layout if source is not None and isinstance(source.layout, SessionLayout) else SessionLayout()
    document = _js_numbers(working_set.document)
    if layout.indent is None:
        text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    else:
        text = json.dumps(document, ensure_ascii=False, indent=layout.indent)
    if layout.final_newline:
        text += "\n"
    # A lone surrogate (JSON's ``"\ud800"``, which JSON.parse keeps) has no UTF-8 bytes: written as its escape, as
    # memoir-cli's JSON.stringify writes it.
    return encode(_LONE_SURROGATE.sub(_escaped, text), layout.text)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _escaped(match: re.Match) -> str:
    return f"\\u{ord(match.group()):04x}"


def _js_numbers(value: Any) -> Any:
    """Integral floats as JavaScript writes them (``42``, not ``42.0``)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return int(value)
    if isinstance(value, dict):
        return {k: _js_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_js_numbers(v) for v in value]
    return value
