"""YAML text exactly as memspec writes it: js-yaml 3.14 ``safeDump`` with default options.

memspec writes every record through gray-matter, which calls js-yaml's
``safeDump`` (2-space indent, ``lineWidth`` 80, block style, YAML 1.1 compat
quoting). A writer that means to produce what memspec produces has to make
the same choices, character for character:

- a scalar is plain only if it is plain-safe *and* would not read back as
  another type (``true``, ``null``, ``0123``, ``2026-04-04``, ``1e3``…);
- otherwise single-quoted, or double-quoted with escapes when it holds a
  character js-yaml calls non-printable (tab, NBSP, astral characters, which
  JavaScript sees as surrogate halves);
- ``y``/``yes``/``on``/``off``… (YAML 1.1 booleans) are always single-quoted;
- a string with a line longer than the width (80 minus the indentation, at
  least 40) is folded with ``>-``; one with line breaks but no long line is
  literal ``|``;
- sequences under a key are indented by two and written ``- item``;
  mappings inside sequences start on the dash line;
- widths and positions are counted in UTF-16 code units, as JavaScript does.

Only the value types frontmatter can hold are supported: str, int, float,
bool, None, list, dict.
"""

from __future__ import annotations

import functools
import math
import re
from typing import Any

#: Strings js-yaml quotes for YAML 1.1 compatibility (``noCompatMode`` false).
_COMPAT_BOOLEANS = frozenset("y Y yes Yes YES on On ON n N no No NO off Off OFF".split())

_ESCAPES = {0x00: "\\0", 0x07: "\\a", 0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0B: "\\v", 0x0C: "\\f",
            0x0D: "\\r", 0x1B: "\\e", 0x22: '\\"', 0x5C: "\\\\", 0x85: "\\N", 0xA0: "\\_",
            0x2028: "\\L", 0x2029: "\\P"}

#: A YAML 1.1 float as js-yaml resolves it: ``2.5e4``, ``.5``, ``1:30.0``, ``.inf``.
_FLOAT = re.compile(r"^(?:[-+]?(?:0|[1-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?"
                    r"|\.[0-9_]+(?:[eE][-+]?[0-9]+)?"
                    r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*"
                    r"|[-+]?\.(?:inf|Inf|INF)"
                    r"|\.(?:nan|NaN|NAN))$")
#: A date js-yaml resolves to a timestamp: ``2026-04-04``.
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
#: A date-time js-yaml resolves to a timestamp: ``2026-04-04T10:30:00.000Z``.
_TIMESTAMP = re.compile(r"^[0-9]{4}-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9]{2}:[0-9]{2}"
                        r"(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9]{2})?))?$")
#: A base-60 tail of an integer: ``:30:00``.
_BASE60_TAIL = re.compile(r"^(?::[0-5]?[0-9])+$")

_PLAIN_FIRST_UNSAFE = frozenset("-?:,[]{}#&*!|=>'\"%@`")
_FLOW_UNSAFE = frozenset(",[]{}")

WIDTH = 80
INDENT = 2


def _units(text: str) -> list[int]:
    """``text`` as JavaScript sees it: UTF-16 code units."""
    if not _wide(text):
        return [ord(c) for c in text]  # no astral character, no surrogate: one unit per character
    data = text.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(data[i:i + 2], "little") for i in range(0, len(data), 2)]


#: A character that is not one UTF-16 code unit of its own: astral (a surrogate pair in
#: JavaScript), or a lone surrogate (which JSON's ``\ud800`` can give).
_WIDE = re.compile("[\ud800-\udfff\U00010000-\U0010ffff]")


def _wide(text: str) -> bool:
    """Whether ``text`` holds a character that is not one UTF-16 code unit (:data:`_WIDE`); an ASCII
    string never does, and CPython knows a string is ASCII without reading it."""
    return not text.isascii() and _WIDE.search(text) is not None


#: A character js-yaml does not call printable (:func:`_printable`), the line feed aside.
_NOT_PRINTABLE = re.compile("[^\n\x20-\x7e\xa1-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]")
#: What makes a one-line string not plain after its first character: ``:``, flow indicators, `` #``.
_NOT_PLAIN = re.compile(r"[:,\[\]{}]| #")


def _printable(c: int) -> bool:
    return (0x20 <= c <= 0x7E or (0xA1 <= c <= 0xD7FF and c not in (0x2028, 0x2029))
            or (0xE000 <= c <= 0xFFFD and c != 0xFEFF) or 0x10000 <= c <= 0x10FFFF)


def _white(c: int) -> bool:
    return c in (0x20, 0x09)


def _ns_char(c: int) -> bool:
    return _printable(c) and not _white(c) and c not in (0xFEFF, 0x0D, 0x0A)


def _plain_safe(c: int, prev: int | None) -> bool:
    if not _printable(c) or c == 0xFEFF or c == 0x3A:
        return False
    if c < 0x80 and chr(c) in _FLOW_UNSAFE:
        return False
    return c != 0x23 or (prev is not None and _ns_char(prev))


def _plain_safe_first(c: int) -> bool:
    if not _printable(c) or c == 0xFEFF or _white(c):
        return False
    return not (c < 0x80 and chr(c) in _PLAIN_FIRST_UNSAFE)


def _resolves_int(data: str) -> bool:
    if not data:
        return False
    i, n = 0, len(data)
    ch = data[0]
    if ch in "-+":
        i += 1
        ch = data[i] if i < n else ""
    if ch == "0":
        if i + 1 == n:
            return True
        i += 1
        ch = data[i]
        if ch in "bx":
            digits = "01" if ch == "b" else "0123456789abcdefABCDEF"
            i += 1
            has = False
            last = ch
            for last in data[i:]:
                if last == "_":
                    continue
                if last not in digits:
                    return False
                has = True
            return has and last != "_"
        has = False
        last = ch
        for last in data[i:]:
            if last == "_":
                continue
            if last not in "01234567":
                return False
            has = True
        return has and last != "_"
    if ch == "_":
        return False
    has = False
    while i < n:
        ch = data[i]
        if ch == "_":
            i += 1
            continue
        if ch == ":":
            break
        if ch not in "0123456789":
            return False
        has = True
        i += 1
    if not has or ch == "_":
        return False
    if ch != ":":
        return True
    return bool(_BASE60_TAIL.match(data[i:]))


def ambiguous(text: str) -> bool:
    """Whether js-yaml's safe schema would read ``text`` unquoted as a non-string."""
    return (text in ("~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE", "<<")
            or _resolves_int(text)
            or (bool(_FLOAT.match(text)) and not text.endswith("_"))
            or bool(_DATE.match(text)) or bool(_TIMESTAMP.match(text)))


_PLAIN, _SINGLE, _LITERAL, _FOLDED, _DOUBLE = range(5)


def _quick_style(text: str, single_line: bool, width: int) -> int | None:
    """:func:`_style` of a string of one-unit characters, by whole-string checks; None for the others.

    Equal to :func:`_style` wherever it answers (``tests/test_memspec_jsyaml_quoting.py``
    compares the two): a body of ten thousand characters is then checked by a few
    regular expressions, not one code unit at a time.
    """
    if _wide(text):
        return None
    if _NOT_PRINTABLE.search(text) or (single_line and "\n" in text):
        return _DOUBLE
    if single_line:
        foldable = False
    elif "\n" not in text:  # one line: the test below, without splitting and a generator
        foldable = len(text) > width and text[0] != " "
    else:
        foldable = any(len(line) > width and line[0] != " " for line in text.split("\n"))
    if "\n" in text or foldable:
        return _FOLDED if foldable else _LITERAL
    first = text[0]
    plain = first != " " and first not in _PLAIN_FIRST_UNSAFE and text[-1] != " " and not _NOT_PLAIN.search(text)
    return _PLAIN if plain and not ambiguous(text) else _SINGLE


def _style(units: list[int], text: str, single_line: bool, width: int) -> int:
    plain = _plain_safe_first(units[0]) and not _white(units[-1])
    has_break = foldable = False
    previous_break = -1
    for i, c in enumerate(units):
        if c == 0x0A and not single_line:
            has_break = True
            foldable = foldable or (i - previous_break - 1 > width and units[previous_break + 1] != 0x20)
            previous_break = i
        elif not _printable(c):
            return _DOUBLE
        plain = plain and _plain_safe(c, units[i - 1] if i > 0 else None)
    if not single_line:
        n = len(units)
        foldable = foldable or (n - previous_break - 1 > width and (previous_break + 1 >= n or units[previous_break + 1] != 0x20))
    if not has_break and not foldable:
        return _PLAIN if plain and not ambiguous(text) else _SINGLE
    return _FOLDED if foldable else _LITERAL


def _from_units(units: list[int]) -> str:
    if all(u < 0xD800 or u > 0xDFFF for u in units):
        return "".join(map(chr, units))
    return b"".join(u.to_bytes(2, "little") for u in units).decode("utf-16-le", "surrogatepass")


def _block_header(text: str) -> str:
    indicator = str(INDENT) if re.match(r"^\n* ", text) else ""
    clip = text.endswith("\n")
    keep = clip and (text.endswith("\n\n") or text == "\n")
    return indicator + ("+" if keep else "" if clip else "-") + "\n"


def _indent(text: str, spaces: int) -> str:
    """Every non-empty line of a block scalar's text indented. Such text breaks lines only at ``\n``
    (any other line break is not printable to js-yaml, so that string is double-quoted instead)."""
    pad = " " * spaces
    return "\n".join(pad + line if line else line for line in text.split("\n"))


def _fold_line(line: list[int], width: int) -> list[int]:
    if not line or line[0] == 0x20:
        return line
    out: list[int] = []
    start = curr = 0
    # A break is a space followed by a non-space: ``/ [^ ]/g``.
    for nxt in (i for i in range(len(line) - 1) if line[i] == 0x20 and line[i + 1] != 0x20):
        if nxt - start > width:
            end = curr if curr > start else nxt
            out += [0x0A] + line[start:end]
            start = end + 1
        curr = nxt
    out.append(0x0A)
    if len(line) - start > width and curr > start:
        out += line[start:curr] + [0x0A] + line[curr + 1:]
    else:
        out += line[start:]
    return out[1:]


def _fold(units: list[int], width: int) -> str:
    text = units
    first_lf = text.index(0x0A) if 0x0A in text else len(text)
    result = _fold_line(text[:first_lf], width)
    prev_more_indented = bool(text) and text[0] in (0x0A, 0x20)
    i = first_lf
    while i < len(text):
        j = i
        while j < len(text) and text[j] == 0x0A:
            j += 1
        k = j
        while k < len(text) and text[k] != 0x0A:
            k += 1
        prefix, line = text[i:j], text[j:k]
        more_indented = bool(line) and line[0] == 0x20
        result = result + prefix + ([0x0A] if not prev_more_indented and not more_indented and line else []) \
            + _fold_line(line, width)
        prev_more_indented = more_indented
        i = k
    return _from_units(result)


def _fold_line_text(line: str, width: int) -> str:
    """:func:`_fold_line` of a line of one-unit characters, on the string itself.

    It visits only the breaks where the line is cut, not every space: the first
    break more than ``width`` past the cut before, and the last break before it
    (``tests/test_memspec_fold.py`` holds it to the break-by-break loop).
    """
    if not line or line[0] == " ":
        return line
    out: list[str] = []
    n = len(line)
    start = curr = 0  # the current line's start; the last break passed (0: none, line[0] is no space)
    seen = 0  # every break before this position has been passed
    while True:
        cut = _break_after(line, max(seen, start + width + 1))
        last = _break_before(line, seen, n if cut < 0 else cut)
        if last >= 0:
            curr = last
        if cut < 0:
            break
        end = curr if curr > start else cut
        out.append("\n" + line[start:end])
        start = end + 1
        curr = cut
        seen = cut + 1
    out.append("\n")
    if len(line) - start > width and curr > start:
        out.append(line[start:curr] + "\n" + line[curr + 1:])
    else:
        out.append(line[start:])
    return "".join(out)[1:]


def _break_after(line: str, lo: int) -> int:
    """The first break (a space followed by a non-space) at ``lo`` or after, or -1."""
    i = line.find(" ", lo)
    while i >= 0 and (i + 1 >= len(line) or line[i + 1] == " "):
        i = line.find(" ", i + 1)
    return i


def _break_before(line: str, lo: int, hi: int) -> int:
    """The last break at ``lo`` or after and before ``hi``, or -1."""
    i = line.rfind(" ", lo, hi)
    while i >= 0 and (i + 1 >= len(line) or line[i + 1] == " "):
        i = line.rfind(" ", lo, i)
    return i


def _fold_text(text: str, width: int) -> str:
    """:func:`_fold` of a string of one-unit characters (no astral character, no surrogate)."""
    n = len(text)
    first_lf = text.find("\n")
    if first_lf < 0:
        first_lf = n
    result = [_fold_line_text(text[:first_lf], width)]
    prev_more_indented = bool(text) and text[0] in "\n "
    i = first_lf
    while i < n:
        j = i
        while j < n and text[j] == "\n":
            j += 1
        k = text.find("\n", j)
        if k < 0:
            k = n
        line = text[j:k]
        more_indented = bool(line) and line[0] == " "
        result.append(text[i:j] + ("\n" if not prev_more_indented and not more_indented and line else "")
                      + _fold_line_text(line, width))
        prev_more_indented = more_indented
        i = k
    return "".join(result)


def _escape(units: list[int]) -> str:
    out = []
    i = 0
    while i < len(units):
        c = units[i]
        if 0xD800 <= c <= 0xDBFF and i + 1 < len(units) and 0xDC00 <= units[i + 1] <= 0xDFFF:
            out.append(_hex((c - 0xD800) * 0x400 + units[i + 1] - 0xDC00 + 0x10000))
            i += 2
            continue
        seq = _ESCAPES.get(c)
        out.append(_from_units([c]) if seq is None and _printable(c) else seq or _hex(c))
        i += 1
    return "".join(out)


def _hex(c: int) -> str:
    if c <= 0xFF:
        return "\\x%02X" % c
    if c <= 0xFFFF:
        return "\\u%04X" % c
    return "\\U%08X" % c


def scalar(text: str, level: int = 1, key: bool = False) -> str:
    """One string as js-yaml writes it at nesting ``level`` (1 = a top-level value)."""
    if len(text) <= _SHORT:
        return _short_scalar(text, level, key)  # keys, kinds, states, dates, ids: the same few, again and again
    return _scalar(text, level, key)


#: Strings up to this length are remembered once written (a pure function of its arguments).
_SHORT = 64


@functools.lru_cache(maxsize=4096)
def _short_scalar(text: str, level: int, key: bool) -> str:
    return _scalar(text, level, key)


def _scalar(text: str, level: int, key: bool) -> str:
    if not text:
        return "''"
    if text in _COMPAT_BOOLEANS:
        return f"'{text}'"
    indent = INDENT * max(1, level)
    width = max(min(WIDTH, 40), WIDTH - indent)
    style = _quick_style(text, key, width)
    units = None  # the UTF-16 code units, needed only for text with a wider character
    if style is None:  # (which is when _quick_style does not answer)
        units = _units(text)
        style = _style(units, text, key, width)
    if style == _PLAIN:
        return text
    if style == _SINGLE:
        return "'" + text.replace("'", "''") + "'"
    if style == _LITERAL:
        body = _indent(text, indent)
        return "|" + _block_header(text) + (body[:-1] if body.endswith("\n") else body)
    if style == _FOLDED:
        folded = _fold(units, width) if units is not None else _fold_text(text, width)
        body = _indent(folded, indent)
        return ">" + _block_header(text) + (body[:-1] if body.endswith("\n") else body)
    return '"' + _escape(units if units is not None else _units(text)) + '"'


def _number(value: int | float) -> str:
    """A number as js-yaml represents it: JavaScript's ``toString``, ``.e`` for bare exponents."""
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return ".nan"
    if math.isinf(value):
        return ".inf" if value > 0 else "-.inf"
    if value == 0:
        return "-0.0" if math.copysign(1, value) < 0 else "0"
    text = _js_number(value)
    if value == int(value):  # an integral double is a JS integer: no ``.e`` fix-up
        return text
    return re.sub(r"^([-+]?[0-9]+)e", r"\1.e", text)


def _js_number(value: float) -> str:
    """``Number.prototype.toString()`` of a finite, non-zero double."""
    sign = "-" if value < 0 else ""
    mantissa, _, exp = repr(abs(value)).partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")
    point = len(whole) + (int(exp) if exp else 0)  # position of the decimal point in whole+frac
    if whole == "0":
        stripped = frac.lstrip("0")
        point = -(len(frac) - len(stripped)) + (int(exp) if exp else 0)
        digits = stripped
    digits = digits.rstrip("0") or "0"
    n = point  # value = 0.digits * 10**n
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    tail = ("." + digits[1:]) if k > 1 else ""
    return f"{sign}{digits[0]}{tail}e{'+' if e >= 0 else '-'}{abs(e)}"


_DIGITS = frozenset("0123456789")
_INDEX = re.compile(r"0|[1-9][0-9]*")


def _object_keys(mapping: dict[str, Any]) -> list[str]:
    """``Object.keys`` order: array-index-like keys first, ascending, then the rest as inserted."""
    # Only a key that starts with an ASCII digit can be an index: the regex runs for those alone.
    index = [k for k in mapping if k[:1] in _DIGITS and _INDEX.fullmatch(k) and int(k) < 2**32 - 1]
    if not index:
        return list(mapping)
    index.sort(key=int)
    return index + [k for k in mapping if k not in index]


def _node(value: Any, level: int, block: bool = True) -> str:
    """``writeNode``: the dump of one value (no leading indentation, may start with a newline)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return _number(value)
    if isinstance(value, str):
        return scalar(value, level)
    if isinstance(value, list):
        if not value or not block:
            return "[" + ", ".join(_node(v, level, False) for v in value) + "]"
        return _sequence(value, level)
    if isinstance(value, dict):
        if not value or not block:
            return "{" + ", ".join(f"{scalar(str(k), level, key=True)}: {_node(v, level, False)}"
                                   for k, v in ((k, value[k]) for k in _object_keys(value))) + "}"
        return _mapping(value, level, compact=False)
    raise TypeError(f"cannot write a {type(value).__name__} as memspec YAML")


def _sequence(items: list[Any], level: int, compact: bool = False) -> str:
    out = []
    for index, item in enumerate(items):
        dump = _node_in_sequence(item, level + 1)
        line = "" if compact and index == 0 else "\n" + " " * (INDENT * level)
        out.append(line + ("-" if dump.startswith("\n") else "- ") + dump)
    return "".join(out)


def _node_in_sequence(value: Any, level: int) -> str:
    if isinstance(value, dict) and value:
        return _mapping(value, level, compact=True)
    if isinstance(value, list) and value:
        return _sequence(value, level, compact=True)
    return _node(value, level)


def _mapping(mapping: dict[str, Any], level: int, compact: bool) -> str:
    out = []
    pad = "\n" + " " * (INDENT * level)
    inner = level + 1
    for index, key in enumerate(_object_keys(mapping)):
        value = mapping[key]
        # What scalar() and _node() do for a short string, without the two calls: most values are one.
        if value.__class__ is str and len(value) <= _SHORT:
            dump = _short_scalar(value, inner, False)
        else:
            dump = _node(value, inner)
        if key.__class__ is not str:
            key = str(key)
        written = _short_scalar(key, inner, True) if len(key) <= _SHORT else _scalar(key, inner, True)
        out.append(("" if compact and index == 0 else pad) + written
                   + (":" if dump.startswith("\n") else ": ") + dump)
    return "".join(out)


def dump(mapping: dict[str, Any]) -> str:
    """A whole frontmatter mapping, as ``safeDump(...).trim()`` — no trailing newline."""
    if not mapping:
        return "{}"
    return _mapping(mapping, 0, compact=True).strip()


def dump_key(key: str, value: Any) -> list[str]:
    """The lines of one top-level ``key: value`` pair, as memspec writes them."""
    return (scalar(key, 1, key=True) + (":" if (d := _node(value, 1)).startswith("\n") else ": ") + d).split("\n")
