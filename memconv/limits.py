"""How much work one input file may ask of memconv: the bounds, in one place.

Every file in IN is untrusted. A few bytes of YAML can name a structure of
billions of nodes (an alias bomb), nest deeper than Python's stack, or spell
an integer Python refuses to read. Readers check these bounds *before* they
build or walk anything, and a file over a bound is quarantined with the bound
named in its reason; the rest of the store converts.

The defaults (docs/limits.md) are far above anything a person or an agent
writes by hand. They live in one :class:`Limits`, in force per run (:func:`limits`); a caller (the CLI, a test) may
replace it with :func:`set_limits` and put it back with :func:`reset_limits`.
"""

from __future__ import annotations

import contextvars
import dataclasses
import json
import re
from dataclasses import dataclass
from typing import Any


#: Default per-file size limit (``--max-file-size``): a memory file is text, far smaller.
DEFAULT_MAX_FILE_SIZE = 64 * 1024 * 1024
#: The deepest ``max_depth`` a run may be given (``--max-depth``): a document nested this deep is read, converted and
#: written by every step, each of which recurses once a level; at 400 a session.json stopped a run with exit 4 (the
#: recursion limit met past its read), where a limit is to quarantine the file by name (docs/limits.md).
DEEPEST = 250


@dataclass(frozen=True)
class Limits:
    """Bounds on the work one input file may cause."""

    #: The largest file a run reads, in bytes; a larger one is refused by name, unread (fs.py).
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    #: Deepest nesting of lists and mappings in YAML frontmatter or a JSON document.
    max_depth: int = 100
    #: Most YAML nodes a frontmatter block may stand for once its aliases are expanded.
    max_yaml_nodes: int = 100_000
    #: Most alias uses (``*name``) in one YAML document.
    max_yaml_aliases: int = 1_000
    #: Longest integer, in digits (Python refuses more than 4300 when reading text).
    max_int_digits: int = 4_000


#: The bounds in force for this run (the CLI starts every run from the defaults).
_current: contextvars.ContextVar[Limits] = contextvars.ContextVar("memconv_limits", default=Limits())


def limits() -> Limits:
    """The bounds in force."""
    return _current.get()


def set_limits(value: Limits | None = None, /, **changes: Any) -> contextvars.Token:
    """Use ``value`` (or the bounds in force with ``changes``: ``set_limits(max_depth=50)``) from now on.

    Returns the token that :func:`reset_limits` takes to put the previous bounds back.
    """
    return _current.set(dataclasses.replace(value if value is not None else _current.get(), **changes))


def reset_limits(token: contextvars.Token) -> None:
    _current.reset(token)


class TooDeep(ValueError):
    """A document nests deeper than :attr:`Limits.max_depth`."""


#: JSON tokens that matter for nesting: a whole string (skipped), or a bracket.
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)
#: A run of digits long enough to be over any sane limit (checked against the real one below).
_LONG_NUMBER = re.compile(r"[0-9]{100,}")


def json_depth(text: str) -> int:
    """How deep ``text``'s arrays and objects nest, read in one linear pass (strings skipped)."""
    depth = deepest = 0
    for m in _JSON_TOKEN.finditer(text):
        c = m.group(0)
        if c in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif c in "]}":
            depth -= 1
    return deepest


def load_json(text: str | bytes) -> Any:
    """``json.loads``, refusing nesting deeper than the limit and integers longer than it.

    Raises ``ValueError`` (``json.JSONDecodeError`` and :class:`TooDeep` are
    both) with a message a user can act on; never ``RecursionError``.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    limit = limits().max_depth
    if text.count("[") + text.count("{") > limit and json_depth(text) > limit:
        raise TooDeep(f"it nests lists or objects deeper than {limit} levels")
    if _LONG_NUMBER.search(text):
        digits = limits().max_int_digits

        def parse_int(s: str) -> int:
            if len(s.lstrip("-")) > digits:
                raise ValueError(f"it holds a number of more than {digits} digits")
            return int(s)

        return _loads(text, parse_int=parse_int)
    return _loads(text)


def _loads(text: str, **options: Any) -> Any:
    """``json.loads``, its ``RecursionError`` (nesting past what Python's reader follows, under a ``--max-depth``
    raised past it) said as :class:`TooDeep`."""
    try:
        return json.loads(text, **options)
    except RecursionError:
        raise TooDeep("it nests lists or objects deeper than the JSON reader can follow") from None


def depth_of(value: Any, limit: int | None = None) -> int:
    """How deep a parsed value nests (lists and dicts), stopping once past ``limit``."""
    limit = limits().max_depth if limit is None else limit
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if depth > limit:
            return depth
        stack.extend((child, depth + 1) for child in children)
    return deepest
