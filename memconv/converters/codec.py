"""Model values to JSON and back, so a carried field survives any target's text.

Carried fields are written as one JSON document in the target's extension
mechanism. Decoding is driven by the model's own type hints, so a carried
``edges`` comes back as ``list[Edge]``, not as a list of dicts.
"""

from __future__ import annotations

import codecs
import dataclasses
import functools
import json
import types
import typing
from typing import Any, Callable, Iterable, Iterator

from ..model import Record


def as_json(value: Any) -> Any:
    """A model value as JSON data: dataclasses as objects of their set fields."""
    if value is None or value.__class__ in _SCALARS:
        return value
    names = _json_fields(value.__class__)
    if names is not None:
        return {name: as_json(getattr(value, name)) for name in names}
    if isinstance(value, list):
        return [as_json(v) for v in value]
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    return value


def json_default(value: Any) -> Any:
    """``json.dumps``'s ``default``: a dataclass as the object :func:`as_json` makes of it, one level deep.

    The encoder asks for each model value when it reaches it, so a large value (a store note's
    indexes: a node per index line) is encoded without its whole JSON tree built first;
    ``json.dumps(v, default=json_default)`` is ``json.dumps(as_json(v))``.
    """
    names = _json_fields(value.__class__)
    if names is None:
        raise TypeError(f"{value.__class__.__name__} is not a model value")
    return {name: getattr(value, name) for name in names}


class TextOfBytes:
    """The text of UTF-8 bytes, as a JSON string of :func:`json_pieces`: the bytes are read (``load()``: the
    bytes, or the bytes in pieces) when it is encoded and decoded a slice at a time, so a carried file's text (a
    100,000-link ``MEMORY.md`` in a store note) is never held whole, as bytes or as text (docs/performance.md)."""

    __slots__ = ("load",)

    def __init__(self, load: Callable[[], bytes | Iterable[bytes]]):
        self.load = load

    def pieces(self) -> Iterator[str]:
        loaded = self.load()
        decoder = codecs.getincrementaldecoder("utf-8")()  # strict, as bytes.decode("utf-8")
        for data in (loaded,) if isinstance(loaded, bytes) else loaded:
            for start in range(0, len(data), _PIECE):
                yield compact_json(decoder.decode(data[start:start + _PIECE]))[1:-1]
        yield compact_json(decoder.decode(b"", final=True))[1:-1]  # a character cut at the end fails here


def json_pieces(value: Any) -> Iterator[str]:
    """:func:`compact_json` of ``value``, in pieces that join to it.

    A list is given item by item, a mapping or model value that holds a list, a mapping or a long
    text key by key, and a long text in slices; anything else is one piece. So a value of many parts (a store note's index of 10,000 lines)
    is never one string, nor a tree of objects, before its text is written (docs/performance.md).
    """
    if value.__class__ is TextOfBytes:
        yield '"'
        yield from value.pieces()
        yield '"'
        return
    if value.__class__ is str and len(value) > _PIECE:
        # escaping is character by character: a long text (a carried raw index) goes in slices
        yield '"'
        for start in range(0, len(value), _PIECE):
            yield compact_json(value[start:start + _PIECE])[1:-1]
        yield '"'
        return
    if isinstance(value, list):
        yield "["
        # Items of one piece each are encoded a run at a time, their commas inside: a store note's index of
        # 10,000 lines was 10,000 ``json.dumps`` calls and 20,000 pieces, each quoted on its own (notes._render).
        run: list[Any] = []
        comma = ""
        for item in value:
            parts = _in_parts(item)
            if parts is None:
                run.append(item)
                if len(run) < _RUN:
                    continue
            if run:
                yield comma + compact_json(run)[1:-1]
                comma, run = ",", []
            if parts is not None:
                yield comma
                comma = ","
                yield from json_pieces(item)
        if run:
            yield comma + compact_json(run)[1:-1]
        yield "]"
        return
    fields = _in_parts(value)
    if fields is None:
        yield compact_json(value)
        return
    for i, (key, item) in enumerate(fields.items()):
        yield ("," if i else "{") + compact_json(key) + ":"
        yield from json_pieces(item)
    yield "}"


def _in_parts(value: Any) -> Any:
    """None when :func:`json_pieces` gives ``value`` as one piece; else what it takes apart: the value itself (a list,
    a long text), or its mapping (a model value's fields) when that holds a list, a mapping, a model value or a long
    text."""
    cls = value.__class__
    if cls is str:
        return value if len(value) > _PIECE else None
    if value is None or cls in _SCALARS:
        return None
    if cls is TextOfBytes or isinstance(value, list):
        return value
    fields = json_default(value) if _json_fields(cls) is not None else value
    if not isinstance(fields, dict) or not all(k.__class__ is str for k in fields) \
            or not any(isinstance(v, (list, dict)) or _json_fields(v.__class__) is not None
                       or (v.__class__ is str and len(v) > _PIECE) or v.__class__ is TextOfBytes
                       for v in fields.values()):
        return None
    return fields


#: The longest slice of a text that :func:`json_pieces` gives as one piece (characters).
_PIECE = 1 << 16

#: The most list items of one piece each that :func:`json_pieces` encodes together: texts of up to ``_PIECE``
#: characters each, so a run's piece stays a few megabytes at most.
_RUN = 64

#: A model value as the one-line JSON text memconv writes (UTF-8 kept, no spaces).
#: One encoder for every call: ``json.dumps`` with these options builds a new one each time (a carry per record).
compact_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=json_default).encode


#: Types whose values are their own JSON.
_SCALARS = frozenset({str, int, float, bool})


@functools.cache
def dataclass_fields(cls: type) -> tuple[str, ...] | None:
    """The field names of a dataclass type, in order; None for any other type (asked once per type)."""
    return tuple(f.name for f in dataclasses.fields(cls)) if dataclasses.is_dataclass(cls) else None


@functools.cache
def _json_fields(cls: type) -> tuple[str, ...] | None:
    """The fields :func:`as_json` writes of a dataclass (all but ``source``); None for any other type."""
    names = dataclass_fields(cls)
    return None if names is None else tuple(name for name in names if name != "source")


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def field_type(name: str) -> Any:
    """The declared type of ``Record.<name>``."""
    return _hints(Record)[name]


def from_json(data: Any, hint: Any) -> Any:
    """JSON data back into a value of type ``hint``."""
    if data is None:
        return None
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        for option in options:
            if _fits(data, option):
                return from_json(data, option)
        return data
    if origin is list:
        (item,) = typing.get_args(hint) or (Any,)
        return [from_json(v, item) for v in data]
    if origin is dict:
        args = typing.get_args(hint)
        value_hint = args[1] if len(args) == 2 else Any
        return {k: from_json(v, value_hint) for k, v in data.items()}
    if isinstance(hint, type) and dataclasses.is_dataclass(hint) and isinstance(data, dict):
        hints = _hints(hint)
        known = {f.name for f in dataclasses.fields(hint)}
        return hint(**{k: from_json(v, hints[k]) for k, v in data.items() if k in known})
    return data


def _json_type(data: Any) -> str:
    if data is None:
        return "null"
    if isinstance(data, bool):
        return "a boolean"
    if isinstance(data, (int, float)):
        return "a number"
    if isinstance(data, str):
        return "text"
    if isinstance(data, list):
        return "a list"
    if isinstance(data, dict):
        return "an object"
    return type(data).__name__


def _name(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_name(a) for a in typing.get_args(hint))
    if origin is list:
        return "a list"
    if origin is dict or (isinstance(hint, type) and dataclasses.is_dataclass(hint)):
        return "an object"
    return {str: "text", int: "an integer", bool: "a boolean", float: "a number",
            type(None): "null"}.get(hint, str(hint))


def check_json(data: Any, hint: Any, where: str) -> None:
    """Raise ``ValueError`` naming ``where`` unless JSON ``data`` is exactly a value of type ``hint``.

    Stricter than :func:`decode`, which trusts its input: every list item,
    every object key and every dataclass field is checked, unknown fields and
    missing required ones included. Carried data is untrusted input.
    """
    if hint is Any:
        return
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        errors = []
        for option in typing.get_args(hint):
            try:
                check_json(data, option, where)
                return
            except ValueError as exc:
                if option is not type(None) and _fits(data, option):
                    errors.append(exc)
        if len(errors) == 1:
            # Of the right shape, wrong within (a list holding a number): what is wrong there, not "a list, not a
            # list or null".
            raise errors[0]
        raise ValueError(f"{where} is {_json_type(data)}, not {_name(hint)}")
    if hint is type(None):
        if data is not None:
            raise ValueError(f"{where} is {_json_type(data)}, not null")
        return
    if origin is list:
        if not isinstance(data, list):
            raise ValueError(f"{where} is {_json_type(data)}, not a list")
        (item,) = typing.get_args(hint) or (Any,)
        for i, value in enumerate(data):
            check_json(value, item, f"{where}[{i}]")
        return
    if origin is dict:
        if not isinstance(data, dict):
            raise ValueError(f"{where} is {_json_type(data)}, not an object")
        args = typing.get_args(hint)
        for key, value in data.items():
            if not isinstance(key, str):
                raise ValueError(f"{where} has a key that is not text")
            check_json(value, args[1] if len(args) == 2 else Any, f"{where}.{key}")
        return
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(data, dict):
            raise ValueError(f"{where} is {_json_type(data)}, not an object")
        hints = _hints(hint)
        fields = {f.name: f for f in dataclasses.fields(hint) if f.name != "source"}
        for key, value in data.items():
            if key not in fields:
                raise ValueError(f"{where} has a field {key!r} that {hint.__name__} does not have")
            check_json(value, hints[key], f"{where}.{key}")
        for name, f in fields.items():
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING and name not in data:
                raise ValueError(f"{where} has no {name!r}")
        return
    if not _fits(data, hint) or (hint is str and not isinstance(data, str)):
        raise ValueError(f"{where} is {_json_type(data)}, not {_name(hint)}")


def _fits(data: Any, hint: Any) -> bool:
    origin = typing.get_origin(hint) or hint
    if hint is Any:
        return True
    if origin is list:
        return isinstance(data, list)
    if origin is dict or (isinstance(hint, type) and dataclasses.is_dataclass(hint)):
        return isinstance(data, dict)
    if hint is int:
        return type(data) is int
    if hint is bool:
        return type(data) is bool
    if hint is float:
        return isinstance(data, (int, float)) and type(data) is not bool
    if isinstance(hint, type):
        return isinstance(data, hint)
    return True
