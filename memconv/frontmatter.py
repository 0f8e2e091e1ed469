"""Frontmatter: split a markdown file, read its YAML, and write it back in place.

One pass per file: the block is parsed once with PyYAML's C loader, and the
same lines are cut into per-key chunks so that a writer can keep every key it
did not change exactly as the user wrote it (quotes, comments, list style)
and render only the keys whose values changed. That is how an edited record
keeps its formatting, and how an unedited one comes back byte for byte.

Values are read with YAML 1.2 core meanings, not PyYAML's 1.1 ones: dates
stay strings (``created: 2026-05-14`` is text to every dialect here), and only
``true``/``false`` are booleans (``yes`` is a word).
"""

from __future__ import annotations

import json
import re
from sys import intern
from dataclasses import dataclass
from typing import Any, Callable

import yaml

from . import limits
from .errors import ReadError
from .text import TextLayout, after_line_breaks, decode, remember, replaced, with_head

try:  # pragma: no cover - which loader exists depends on the PyYAML build
    _BaseLoader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _BaseLoader = yaml.SafeLoader


_WORD_KEY_TAGS = frozenset(("tag:yaml.org,2002:null", "tag:yaml.org,2002:bool"))


class _Loader(_BaseLoader):  # type: ignore[misc, valid-type]
    """Safe loader without timestamp resolution, with YAML 1.2 booleans, and numbers as both readers see them."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        """A key written as a plain ``null``, ``true`` or ``False`` is that text, as the fast path reads it and
        js-yaml (memoir-cli, memspec) keys it: only a mapping built here (a block the fast path declined) pays.
        (tests/test_a_key_named_null_or_true_is_text_whatever_else_the_frontmatter_holds.py)"""
        if isinstance(node, yaml.MappingNode):
            self.flatten_mapping(node)  # merged (``<<:``) keys are this mapping's own keys from here on
            for key_node, _ in node.value:
                if key_node.tag in _WORD_KEY_TAGS and not key_node.style and key_node.value:  # plain: None or ""
                    key_node.tag = "tag:yaml.org,2002:str"
        return super().construct_mapping(node, deep=deep)


#: A plain scalar is a number only where PyYAML (YAML 1.1) and js-yaml 3 (memspec's parser, through
#: gray-matter) both read one: PyYAML's float pattern, less what js-yaml reads as text (a trailing
#: ``_``; a float whose whole part has a leading zero, ``01.5``; a signed ``.nan``; ``._5``) and less
#: sexagesimals (``1:20.5``). An integer is plain decimal digits only: ``10:30``, ``017``, ``0x1f``,
#: ``0b11``, ``1_000`` and ``+12``, numbers to both YAML libraries, are text to memoir-cli's parser
#: (``017`` is 17 to it) and to memfmt's, and the human wrote that text, so it stays text. Where
#: js-yaml alone reads a number (``1e3``, with no dot) the text stays text too; memconv's memspec
#: writer quotes all of these (docs/conversion.md, "Numbers in frontmatter";
#: tests/test_yaml_numbers_as_the_tools_read_them.py).
NUMBER_PATTERNS = {
    "tag:yaml.org,2002:float": re.compile(r"""^(?!.*_$)(?:[-+]?(?:0|[1-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
                    |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
                    |[-+]?\.(?:inf|Inf|INF)
                    |\.(?:nan|NaN|NAN))$""", re.X),
    "tag:yaml.org,2002:int": re.compile(r"^-?(?:0|[1-9][0-9]*)$"),
}

_Loader.yaml_implicit_resolvers = {
    first: [(tag, NUMBER_PATTERNS.get(tag, rx)) for tag, rx in resolvers
            if tag not in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:bool")]
    for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)

#: A delimiter line: ``---`` with optional trailing spaces.
_DELIMITER = re.compile(r"^---[ \t]*$")
#: The closing line of a frontmatter block: the first line after the opening one that is a delimiter.
_CLOSING = re.compile(_DELIMITER.pattern, re.MULTILINE)
#: The start of a top-level key: ``name: value`` or ``"quoted key": value``.
#: (Its plain key runs to the first ``:``, trailing blanks included and stripped by the caller:
#: a lazy key followed by ``[ \t]*`` is quadratic on a long run of spaces.)
_TOP_KEY = re.compile(r"""^(?:"(?P<dq>[^"]*)"[ \t]*|'(?P<sq>[^']*)'[ \t]*|(?P<plain>[^\s#\-'"][^:]*|-[^\s:][^:]*)):(?:[ \t]|$)""")


#: The tags a value may have: plain scalars, lists and mappings (and ``<<`` merge keys).
_PLAIN_TAGS = frozenset("tag:yaml.org,2002:" + t for t in ("str", "int", "float", "bool", "null", "seq", "map", "merge"))
_INT_TAG = "tag:yaml.org,2002:int"


class UnsafeYAML(yaml.YAMLError):
    """YAML that would take unbounded work, or build more than plain data; never constructed."""

    def __init__(self, problem: str, mark: Any = None):
        super().__init__(problem)
        self.problem = problem
        self.problem_mark = mark


def _check(root: yaml.Node) -> None:
    """Refuse a composed document before anything is built from it.

    Aliases make the node graph a DAG (or a cycle): each node's size with its
    aliases expanded is counted once per node, so a bomb is measured, never
    expanded. Only plain tags pass; integers are bounded in digits.
    """
    bounds = limits.limits()
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    aliases = 0

    def size(node: yaml.Node, depth: int) -> int:
        nonlocal aliases
        key = id(node)
        if key in sizes:
            aliases += 1
            if aliases > bounds.max_yaml_aliases:
                raise UnsafeYAML(f"it uses more than {bounds.max_yaml_aliases} YAML aliases", node.start_mark)
            return sizes[key]
        if key in on_path:
            raise UnsafeYAML("a YAML alias refers to a node that contains it (a cycle)", node.start_mark)
        if node.tag not in _PLAIN_TAGS:
            raise UnsafeYAML(f"the YAML tag {node.tag!r} is not plain data (text, numbers, lists, mappings)",
                             node.start_mark)
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _INT_TAG and len(node.value) > bounds.max_int_digits:
                raise UnsafeYAML(f"a number has more than {bounds.max_int_digits} digits", node.start_mark)
            sizes[key] = 1
            return 1
        if depth > bounds.max_depth:
            raise UnsafeYAML(f"it nests lists or mappings deeper than {bounds.max_depth} levels", node.start_mark)
        on_path.add(key)
        children = node.value if isinstance(node, yaml.SequenceNode) else [n for pair in node.value for n in pair]
        total = 1
        for child in children:
            total += size(child, depth + 1)
            if total > bounds.max_yaml_nodes:
                raise UnsafeYAML(f"it stands for more than {bounds.max_yaml_nodes} YAML values "
                                 "(an alias bomb?)", node.start_mark)
        on_path.discard(key)
        sizes[key] = total
        return total

    size(root, 1)


def load_yaml(text: str) -> Any:
    """Parse YAML text with this module's meanings (dates stay strings), bounded.

    The document is composed first and checked by :func:`_check` (aliases,
    tags, depth, digits) before any value is built: :class:`UnsafeYAML`
    otherwise, a ``yaml.YAMLError`` like any other syntax problem.
    """
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check(node)
        return loader.construct_document(node)
    finally:
        loader.dispose()


@dataclass(slots=True)
class Chunk:
    """Lines of a frontmatter block: one top-level key, or loose comments/blank lines."""

    key: str | None
    lines: list[str]


#: The block last cut into chunks, and its chunks: (block, chunks).
_last_cut: tuple[str | None, list[Chunk]] = (None, [])


class Frontmatter:
    """A parsed frontmatter block and the layout needed to write it back.

    ``chunks`` is None when the block could not be cut into per-key lines.
    ``close_newline``: whether the closing delimiter line ended with a newline;
    ``gap``: the blank lines between the closing delimiter and the body.

    A block read from a file (:meth:`compact`) keeps its text as one string and
    cuts it into chunks again each time they are asked for (rarely: only a writer
    of the same dialect rendering an edited record does). A store holds about a
    kilobyte less per record than with the chunks built and kept
    (docs/performance.md, "Memory").
    """

    __slots__ = ("values", "_held", "_block", "open_line", "close_line", "close_newline", "gap", "refused")

    def __init__(self, values: dict[str, Any], chunks: list[Chunk] | None, open_line: str = "---",
                 close_line: str = "---", close_newline: bool = True, gap: str = "", refused: str | None = None):
        self.values = values
        #: Why YAML refused the block, when its values were read line by line instead (``split``'s ``lines``).
        self.refused = refused
        self._held = chunks
        self._block: str | None = None
        self.open_line = open_line
        self.close_line = close_line
        self.close_newline = close_newline
        self.gap = gap

    @classmethod
    def compact(cls, values: dict[str, Any], block: str, **layout: Any) -> "Frontmatter":
        """A block whose chunks are cut from ``block`` (its lines, joined) when asked for."""
        fm = cls(values, None, **layout)
        fm._block = block
        return fm

    @property
    def chunks(self) -> list[Chunk] | None:
        if self._block is not None:
            global _last_cut
            block = self._block
            if _last_cut[0] is not block:  # a reader asking twice of one file cuts it once
                _last_cut = (block, _chunks(block.split("\n")))
            return _last_cut[1]  # read-only, as a held list of chunks always was
        return self._held

    @chunks.setter
    def chunks(self, value: list[Chunk] | None) -> None:
        self._held, self._block = value, None

    def _fields(self) -> tuple:
        return (self.values, self.chunks, self.open_line, self.close_line, self.close_newline, self.gap)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Frontmatter):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass it was

    def __repr__(self) -> str:
        values, chunks, open_line, close_line, close_newline, gap = self._fields()
        return (f"Frontmatter(values={values!r}, chunks={chunks!r}, open_line={open_line!r}, "
                f"close_line={close_line!r}, close_newline={close_newline!r}, gap={gap!r})")


def _key_line(block_lines: list[str], key: object) -> int:
    """The file's line (1 is the opening ``---``) of the frontmatter line that writes ``key`` as a key at its start
    (``1: x`` for the key 1), or 2 when none does (written otherwise, ``0x1: x``): the message named line 2 for
    every such key, wherever it was."""
    written = re.compile(rf"{re.escape(str(key))}\s*:(?:\s|$)")
    return next((n + 2 for n, line in enumerate(block_lines) if written.match(line)), 2)


def split(text: str, path: str, once: str | None = None,
          lines: Callable[[list[str]], dict] | None = None) -> tuple[Frontmatter | None, str]:
    """Cut ``text`` into its frontmatter and its body.

    Returns ``(None, text)`` for a file with no frontmatter. Raises
    :class:`ReadError` (with the line) for an unterminated block, YAML that
    does not parse, or a block that is not a mapping. A top-level key written
    twice is read as YAML reads it, the last line winning, unless ``once`` says
    why the dialect's own tool refuses such a file (memspec's): then it is
    refused too, at its second line (docs/limits.md, forty-sixth session).

    ``lines``, when given, is the dialect's own tool's reading of a block line by line
    (:func:`memoir_cli_values`): a block that YAML refuses (a syntax error, not a mapping, a key that is not
    text; never one over memconv's bounds) is read with it, with no chunks, its ``refused`` saying why.
    """
    if not text.startswith("---"):
        return None, text
    first_end = text.find("\n")
    first = text if first_end < 0 else text[:first_end]
    if not _DELIMITER.match(first):
        return None, text
    if first_end < 0:
        raise ReadError(path, "frontmatter is opened with '---' but never closed", line=1,
                        hint="add a closing '---' line after the frontmatter")
    # The closing line found in the text, and the body cut from it once (cut into lines and joined again, a 50 MB
    # body was two more copies and a list of its lines; docs/performance.md, "(seventeenth)").
    close = _CLOSING.search(text, first_end + 1)
    if close is None:
        raise ReadError(path, "frontmatter is opened with '---' but never closed", line=1,
                        hint="add a closing '---' line after the frontmatter")
    block_lines = text[first_end + 1:close.start() - 1].split("\n") if close.start() > first_end + 1 else []
    close_line, end = close.group(), close.end()
    close_newline = end < len(text)
    body_at = after_line_breaks(text, end + 1) if close_newline else end
    gap = text[end + 1:body_at]
    stripped = text[body_at:]
    block = "\n".join(block_lines)
    try:
        values = fast = _fast_values(block_lines)
        if values is None:
            values = load_yaml(block) if block.strip() else {}
            if isinstance(values, dict) and all(type(k) is str for k in values):
                values = {intern(k): v for k, v in values.items()}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        if isinstance(exc, UnsafeYAML):
            raise ReadError(path, f"frontmatter refused: {problem}", line=line,
                            hint="memconv reads plain YAML data within bounds; see docs/limits.md") from None
        refusal = ReadError(path, f"frontmatter is not valid YAML: {problem}", line=line,
                            hint="fix the YAML between the '---' lines")
        values = None
    else:
        refusal = None
        if values is None:
            values = {}
        if not isinstance(values, dict):
            refusal = ReadError(path, "frontmatter is not a mapping of keys to values", line=2,
                                hint="write frontmatter as 'key: value' lines")
        else:
            for key in values:
                if not isinstance(key, str):
                    refusal = ReadError(path, f"frontmatter key {key!r} is not text",
                                        line=_key_line(block_lines, key),
                                        hint=f"quote the key ('{key}': ...) to keep it as text")
                    break
    layout = dict(open_line=first, close_line=close_line, close_newline=close_newline, gap=gap)
    if refusal is not None:
        if lines is None:
            raise refusal
        return Frontmatter(lines(block_lines), None, **layout, refused=refusal.message), stripped
    if fast is not None and block_lines:
        # Every line the fast path takes is a key line or one of its own lines: the scanner cuts
        # the block at those keys (tests/test_frontmatter_compact.py), so it is not run now.
        return Frontmatter.compact(values, block, **layout), stripped
    chunks = _chunks(block_lines)  # (a key written twice is never on the fast path: it declines one)
    if once is not None:
        _refuse_twice(chunks, path, once)
    if {c.key for c in chunks if c.key is not None} != set(values):
        # A construct the line scanner does not follow (complex keys, odd
        # indentation): keep the values, and render the block anew if edited.
        return Frontmatter(values=values, chunks=None, **layout), stripped
    if not block_lines:
        return Frontmatter(values=values, chunks=chunks, **layout), stripped
    return Frontmatter.compact(values, block, **layout), stripped


def _refuse_twice(chunks: list[Chunk], path: str, why: str) -> None:
    """Raise :class:`ReadError` at the second line of the first top-level key ``chunks`` write twice."""
    first: dict[str, int] = {}
    line = 2  # the file's line of the chunk (1 is the opening ``---``)
    for chunk in chunks:
        if chunk.key is not None:
            if chunk.key in first:
                raise ReadError(path, f"frontmatter writes the key {chunk.key!r} twice (lines {first[chunk.key]} "
                                f"and {line}): {why}", line=line,
                                hint="take out the line that does not hold the value meant")
            first[chunk.key] = line
        line += len(chunk.lines)


def split_file(raw: bytes, path: str, once: str | None = None,
               lines: Callable[[list[str]], dict] | None = None) -> tuple[Frontmatter | None, str, TextLayout]:
    """A file's bytes → its frontmatter, its body and its text layout (:func:`split` of what
    :func:`memconv.text.decode` gives), the frontmatter's line ends told apart from the body's where they differ
    (:func:`memconv.text.with_head`), so that its writer writes each back (``text.encode``'s ``head``): a memoir,
    Claude Code or memspec file with an LF frontmatter over a CRLF body."""
    text, layout = decode(raw, path)
    fm, body = split(text, path, once, lines)
    if fm is not None and layout.newline != "\n":
        layout = with_head(layout, raw, text.count("\n", 0, len(text) - len(body) - len(fm.gap)))
    return fm, body, layout


#: A key line the fast path takes: ``name: value`` or ``tags:`` (value parsed separately).
_FAST_KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$")
#: A nested line the fast path takes: ``  tool: memoir-cli`` under a mapping key.
_FAST_SUBKEY = re.compile(r"^  ([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$")
#: A list item the fast path takes: ``  - staging`` or ``- staging``.
_FAST_ITEM = re.compile(r"^(?:  )?- (.*)$")
#: A plain scalar with no YAML syntax in it: ``Staging API endpoints``.
_FAST_PLAIN = re.compile(r"^[^\s'\"\[\]{}#&*!|>%@`,?:<=~.+\-](?:[^:#\t]|:(?! |$)|(?<! )#)*(?<=\S)$")
#: Numbers and dates the fast path types itself: ``42``, ``2026-05-14``, ``2026-06-12T09:30:00Z``.
_FAST_INT = re.compile(r"^-?(?:0|[1-9][0-9]*)$")
_FAST_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?$")
#: Digits and letters, at least one letter, nothing else: text to YAML (no dot, colon or underscore).
_FAST_HEXISH = re.compile(r"^[0-9][0-9A-Za-z]*[A-Za-z][0-9A-Za-z]*$")
_WORDS = {"null": None, "Null": None, "NULL": None, "true": True, "True": True, "TRUE": True,
          "false": False, "False": False, "FALSE": False}


#: Characters YAML will not take raw in a plain scalar (controls, line separators, BOM).
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]")


#: Answers of :func:`_scalar_answer` for short texts (tags, dates, types, states, words said again and
#: again across a store), emptied when full. Values that are lists or dicts are never kept: each
#: caller gets its own.
_SCALARS: dict[str, tuple[bool, object]] = {}
_SCALARS_LEN = 64


def _fast_scalar(text: str) -> tuple[bool, object]:
    """(True, value) when ``text`` is a scalar whose YAML meaning is certain; (False, None) otherwise.

    :func:`_scalar_answer`, remembered for short texts (``tests/test_frontmatter_scalar_cache.py``).
    """
    answer = _SCALARS.get(text)
    if answer is None:
        answer = _scalar_answer(text)
        if len(text) <= _SCALARS_LEN and not isinstance(answer[1], (dict, list)):
            remember(_SCALARS, text, answer)
    return answer


def _scalar_answer(text: str) -> tuple[bool, object]:
    """What :func:`_fast_scalar` answers, worked out anew."""
    if _UNPRINTABLE.search(text):
        return False, None
    if text in _WORDS:
        return True, _WORDS[text]
    if text[:1] == "'":
        # A single-quoted scalar on one line: its only escape is '' (js-yaml and memspec quote so).
        inner = text[1:-1]
        if len(text) < 2 or text[-1] != "'" or "'" in inner.replace("''", ""):
            return False, None
        return True, inner.replace("''", "'")
    if text[:1] == '"':
        return _fast_double_quoted(text)
    if text in ("{}", "[]"):
        return True, {} if text == "{}" else []
    if text[:1].isdigit() or text[:1] == "-":
        if _FAST_INT.match(text):
            if len(text) > 18:
                return False, None  # a long number: YAML reads it, within the digits limit
            return True, int(text)
        if _FAST_DATE.match(text):
            return True, text
        if _FAST_HEXISH.match(text) and text[:2].lower() not in ("0x", "0b"):
            return True, text  # a digest (``4f7c1b…``): letters and digits, no number of YAML's
        return False, None
    if _FAST_PLAIN.match(text):
        return True, text
    return False, None


#: The escapes a double-quoted scalar may use on the fast path: those JSON and YAML read alike
#: (what :func:`double_quoted` writes). ``\\u`` is taken outside the surrogates only.
_DQ_ESCAPE = re.compile(r'\\(?:[\\"nrtbf]|u(?![dD][89a-fA-F])[0-9a-fA-F]{4})')
_DQ_SAFE = re.compile(r'[^"\\]*')


def _fast_double_quoted(text: str) -> tuple[bool, object]:
    """A one-line double-quoted scalar whose escapes JSON and YAML read alike (json.dumps writes them)."""
    if len(text) < 2 or text[-1] != '"':
        return False, None
    inner = text[1:-1]
    if "\\" not in inner:
        return (True, inner) if '"' not in inner else (False, None)
    if _DQ_SAFE.fullmatch(_DQ_ESCAPE.sub("", inner)) is None:
        return False, None  # an escape of YAML's own (\\x, \\N, \\_…), a surrogate, or a bare quote
    return True, json.loads(text)


#: A continuation line of a folded block the fast path takes: two spaces, then text, no trailing blank.
_FAST_FOLDED = re.compile(r"^  [^\s](?:.*\S)?$")
#: A list item that opens a mapping: ``  - command: node --version``.
_FAST_ITEM_MAP = re.compile(r"^(  )?- ([A-Za-z_][A-Za-z0-9_-]*): (.+)$")


def _fast_values(lines: list[str]) -> dict | None:
    """The frontmatter values, read without YAML when every line is of the simplest kind.

    Most files in a real store are ``key: plain value`` lines and ``- item``
    lists; for those, this gives exactly what :func:`load_yaml` gives, at a
    fraction of its cost. Also taken: one-line double-quoted values with JSON's
    escapes, a ``>-`` folded value on lines indented by two spaces, and a list of
    one-level mappings (memspec's probes). Anything else (comments, flow lists,
    odd numbers) returns None and the caller parses with YAML. A property test
    holds the two to the same answers.
    """
    values: dict = {}
    key = None
    container = None
    folded: list[str] | None = None  # the lines of a ``>-`` value being read
    item: dict | None = None  # the mapping a ``- key: value`` item opened, and its indent
    item_indent = ""
    n, i = len(lines), 0
    while i < n:
        line = lines[i]
        i += 1
        if folded is not None:
            if _FAST_FOLDED.match(line) and not _UNPRINTABLE.search(line):
                folded.append(line[2:])
                continue
            if not folded:
                return None
            values[key] = " ".join(folded)
            folded = None
            key = None
        m = _FAST_KEY.match(line)
        if m:
            key, rest = intern(m.group(1)), m.group(2)  # one copy of each key name for the whole store
            if key in values:
                return None
            container = item = None
            if rest is None or rest == "":
                values[key] = None
                continue
            if rest == ">-":
                values[key] = None  # taken: a repeated key declines
                folded = []
                continue
            ok, value = _fast_scalar(rest)
            if not ok:
                return None
            values[key] = value
            key = None
            continue
        if key is None:
            return None
        if item is not None and line.startswith(item_indent + "  ") and not line.startswith(item_indent + "   "):
            sub = _FAST_KEY.match(line[len(item_indent) + 2:])
            if sub is None or not sub.group(2) or sub.group(1) in item:
                return None
            ok, value = _fast_scalar(sub.group(2))
            if not ok:
                return None
            item[intern(sub.group(1))] = value
            continue
        entry = _FAST_ITEM_MAP.match(line)
        if entry and (container is None or isinstance(container, list)):
            if container is None:
                container = values[key] = []
            elif item is None or (entry.group(1) or "") != item_indent:
                return None  # a mapping among plain items, or at another indent: YAML's business
            ok, value = _fast_scalar(entry.group(3))
            if not ok:
                return None
            item = {intern(entry.group(2)): value}
            item_indent = entry.group(1) or ""
            container.append(item)
            continue
        plain = _FAST_ITEM.match(line)
        if plain and item is None and (container is None or isinstance(container, list)):
            if container is None:
                container = values[key] = []
            ok, value = _fast_scalar(plain.group(1))
            if not ok:
                return None
            container.append(value)
            continue
        sub = _FAST_SUBKEY.match(line)
        if sub and (container is None or isinstance(container, dict)):
            if container is None:
                container = values[key] = {}
            if sub.group(1) in container:
                return None
            if not sub.group(2):
                # A mapping nested deeper (memspec's ``ext: memconv: fields: …``): its lines, to the next
                # line indented less than four spaces.
                j = _indented_to(lines, i, "    ")
                nested = _fast_nested(lines[i:j], "    ") if j > i else None
                if nested is None:
                    return None
                container[sub.group(1)] = nested
                i = j
                continue
            ok, value = _fast_scalar(sub.group(2))
            if not ok:
                return None
            container[sub.group(1)] = value
            continue
        return None
    if folded is not None:
        if not folded:
            return None
        values[key] = " ".join(folded)
    return values


def _indented_to(lines: list[str], i: int, indent: str) -> int:
    """Where the run of lines from ``lines[i]`` that start with ``indent`` ends (their key's value)."""
    while i < len(lines) and lines[i].startswith(indent):
        i += 1
    return i


def _fast_nested(lines: list[str], indent: str) -> dict | None:
    """A block mapping whose every line is ``key: value`` at ``indent``, or a key with nothing after
    it and a mapping two spaces deeper under it; None for anything else (an empty one included)."""
    out: dict = {}
    n, i, width = len(lines), 0, len(indent)
    deeper = indent + "  "
    while i < n:
        line = lines[i]
        i += 1
        m = _FAST_KEY.match(line[width:]) if line.startswith(indent) else None
        if m is None or m.group(1) in out:
            return None  # deeper than its key's mapping, a list, a comment, a repeated key: YAML's business
        rest = m.group(2)
        if rest:
            ok, value = _fast_scalar(rest)
            if not ok:
                return None
            out[m.group(1)] = value
            continue
        j = _indented_to(lines, i, deeper)
        value = _fast_nested(lines[i:j], deeper) if j > i else None
        if value is None:
            return None
        out[m.group(1)] = value
        i = j
    return out or None


def _chunks(lines: list[str]) -> list[Chunk]:
    chunks: list[Chunk] = []
    for line in lines:
        # An indented line or a list item never starts a key (_TOP_KEY needs a key character
        # or a quote first): it continues the key above, without a regex.
        if chunks and chunks[-1].key is not None and (line[:1] in (" ", "\t") or line.startswith("- ") or line == "-"):
            chunks[-1].lines.append(line)
            continue
        m = _TOP_KEY.match(line)
        if m:
            key = m.group("dq") if m.group("dq") is not None else m.group("sq") if m.group("sq") is not None else m.group("plain").rstrip()
            chunks.append(Chunk(intern(key), [line]))
        elif chunks and chunks[-1].key is not None and (line[:1] in (" ", "\t") or line.startswith("- ") or line == "-"):
            chunks[-1].lines.append(line)
        else:
            chunks.append(Chunk(None, [line]))
    return chunks


def same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (``1`` is not ``True``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


Render = Callable[[str, Any], list[str]]


def patch(fm: Frontmatter | None, pairs: dict[str, Any], render: Render) -> str:
    """Frontmatter text (delimiters included) for ``pairs``, keeping ``fm``'s formatting.

    Keys whose value is unchanged keep their source lines; changed keys are
    rendered with ``render``; removed keys go; new keys are added at the end.
    Comments and blank lines stay where they were.
    """
    if fm is None or fm.chunks is None:
        return _framed("---", [line for key, value in pairs.items() for line in render(key, value)], "---", True)
    out: list[str] = []
    seen: set[str] = set()
    for chunk in fm.chunks:
        if chunk.key is None:
            out.extend(chunk.lines)
            continue
        if chunk.key not in pairs:
            continue
        value = pairs[chunk.key]
        unchanged = chunk.key in fm.values and same(fm.values[chunk.key], value)
        if chunk.key in seen:
            # A key written twice, unchanged, keeps every line it was written on: YAML reads the last, which
            # holds the value. Keeping the first alone wrote the value shadowed (``type: user`` over
            # ``type: reference``); changed, it is rendered once, at its first line (docs/limits.md).
            if unchanged:
                out.extend(chunk.lines)
            continue
        seen.add(chunk.key)
        out.extend(chunk.lines if unchanged else render(chunk.key, value))
    for key, value in pairs.items():
        if key not in seen:
            out.extend(render(key, value))
    return _framed(fm.open_line, out, fm.close_line, fm.close_newline)


def _framed(open_line: str, lines: list[str], close_line: str, close_newline: bool) -> str:
    """The block's text, joined once: a note's one long carry line is not copied again per step."""
    parts = [open_line, "\n"]
    for line in lines:
        parts.append(line)
        parts.append("\n")
    parts.append(close_line)
    if close_newline:
        parts.append("\n")
    return "".join(parts)


# --- canonical rendering of the memoir/claude frontmatter subset -------------------

_PLAIN_UNSAFE_START = set("!&*[]{}|>'\"%@`#,?:-")


def scalar(value: Any) -> str:
    """A YAML scalar in the frontmatter subset: plain when it reads back the same, else single-quoted where
    that says it as memoir-cli reads it (:data:`_SINGLE_QUOTED`), else double-quoted."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value) if value == value and abs(value) != _INF else _YAML_WORDS[str(value)]
    text = str(value)
    written = _WRITTEN.get(text)
    if written is None:
        written = _scalar_text(text)
        if len(text) <= _SCALARS_LEN:
            remember(_WRITTEN, text, written)
    return written


#: A float with no JSON number, as YAML writes it: ``json.dumps`` gives ``NaN`` and ``Infinity``, which YAML readers
#: (js-yaml, PyYAML) read as text.
_YAML_WORDS = {"nan": ".nan", "inf": ".inf", "-inf": "-.inf"}
_INF = float("inf")

#: :func:`_scalar_text` of short texts (dates, tags, types, keys…), as :data:`_SCALARS` for reading.
_WRITTEN: dict[str, str] = {}


def _scalar_text(text: str) -> str:
    """A text as :func:`scalar` writes it, worked out anew."""
    if _plain_ok(text):
        return text
    if _ESCAPED.search(text) and _SINGLE_QUOTED.fullmatch(text):
        return f"'{text}'"
    return double_quoted(text)


#: What a double-quoted scalar escapes among the characters a single-quoted one holds raw. memoir-cli's parser
#: (``parseScalar``) strips a value's outer quotes, double or single, and reads no escapes: it showed
#: ``Use \"Postgres\": not MySQL``. Single-quoted, the text is read alike by it and by YAML.
_ESCAPED = re.compile(r'["\\\t]')
#: A text a single-quoted scalar on one line says exactly with no escape at all: no ``'`` (YAML's ``''``, which
#: memoir-cli reads as two quotes), no line break, no control but a tab, nothing YAML must escape.
_SINGLE_QUOTED = re.compile("[^'\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]*")


def memoir_cli_reads(line: str) -> Any:
    """What memoir-cli 3.12 reads as the value of a top-level key written on ``line`` (``key: value``): the text
    after the first ``:``, trimmed, one pair of outer quotes, double or single, stripped, and no escape read
    (``parseScalar``, :data:`_ESCAPED`); ``true``, ``false`` and whole numbers as such; "" when the line says no
    more (memoir-cli then reads the lines below it as a list or a map)."""
    return _memoir_cli_scalar(line.partition(":")[2])


def _memoir_cli_scalar(text: str) -> Any:
    """memoir-cli's ``parseScalar``: trimmed, one pair of outer quotes stripped, no escape read; ``true``,
    ``false`` and whole numbers as such (a number longer than memconv reads, limits.py, stays its text)."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1]
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch("-?[0-9]+", text) and len(text) <= limits.limits().max_int_digits:
        return int(text)
    return text


#: A top-level ``key: value`` line and an indented ``key: value`` line, as memoir-cli's ``parseFrontmatter``
#: matches them (the key runs to the first ``:``).
_CLI_KEY = re.compile(r"([^:\s][^:]*):\s*(.*)")
_CLI_SUBKEY = re.compile(r"([^:]+):\s*(.*)")
#: The value of a key with no value yet (memoir-cli's ``''``, YAML's null).
_NOTHING = object()


def memoir_cli_values(lines: list[str]) -> dict:
    """A frontmatter block's lines read as memoir-cli 3.12 reads them (``parseFrontmatter`` in
    ``src/commands/validate.js``, which ``validate``, ``recall`` and its MCP tools use), for a block YAML refuses:
    each ``key: value`` line on its own (:func:`_memoir_cli_scalar`, the last of a key written twice winning),
    one level of ``- item`` or ``key: value`` lines indented under a key with no value, blank lines, comments and
    any other line passed over. A key with no value and nothing under it is None, as YAML reads ``key:``."""
    fields: dict = {}
    open_key = None
    for line in lines:
        trimmed = line.strip()
        if not trimmed or trimmed.startswith("#"):
            continue
        if line[:1].isspace() and open_key is not None:
            if trimmed.startswith("- "):
                if not isinstance(fields[open_key], list):
                    fields[open_key] = []
                fields[open_key].append(_memoir_cli_scalar(trimmed[2:]))
            elif m := _CLI_SUBKEY.fullmatch(trimmed):
                if not isinstance(fields[open_key], dict):
                    fields[open_key] = {}
                fields[open_key][m.group(1).strip()] = _memoir_cli_scalar(m.group(2))
            continue
        m = _CLI_KEY.fullmatch(line)
        if m is None:
            continue
        key = intern(m.group(1).strip())
        if m.group(2) == "":
            open_key, fields[key] = key, _NOTHING
        else:
            open_key, fields[key] = None, _memoir_cli_scalar(m.group(2))
    return {key: None if value is _NOTHING else value for key, value in fields.items()}


def carry_scalar(value: Any) -> str:
    """A scalar of memconv's own (a carry's JSON, its marks): plain when it reads back the same, else
    double-quoted, one form whatever the text holds, as a note's carry is written piece by piece
    (converters/notes.py) and :func:`splice` finds it. No user reads it; memconv reads it with YAML."""
    if isinstance(value, str):
        return value if _plain_ok(value) else double_quoted(value)
    return scalar(value)


#: Characters a YAML double-quoted scalar may not hold raw: write them as ``\uXXXX`` escapes.
_YAML_UNPRINTABLE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")


def double_quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar that reads back as exactly ``text``."""
    quoted = json.dumps(text, ensure_ascii=False)  # escapes quotes, backslashes, C0 controls
    return _YAML_UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", quoted)


#: A C0 control, DEL or a byte-order mark: never in a plain scalar.
_CONTROL = re.compile("[\x00-\x1f\x7f\ufeff]")


#: What YAML 1.1 itself (PyYAML's own patterns, by first character) reads as a number. memconv reads
#: ``10:30`` or ``017`` as text (:data:`NUMBER_PATTERNS`) but writes them quoted: other YAML readers
#: (PyYAML, js-yaml) would see a number there.
_YAML11_NUMBERS = {first: tuple(rx for tag, rx in resolvers
                                if tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float"))
                   for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()}


def _plain_ok(text: str) -> bool:
    if not text or text[0].isspace() or text[-1].isspace() or "\n" in text or "\t" in text:
        return False
    if any(rx.match(text) for rx in _YAML11_NUMBERS.get(text[0], ())):
        return False
    if text[0] in _PLAIN_UNSAFE_START and not (text[0] == "-" and len(text) > 1 and text[1] not in " \t"):
        return False
    if ": " in text or " #" in text or text.endswith(":"):
        return False
    if _CONTROL.search(text):
        return False
    certain, value = _fast_scalar(text)
    if certain:
        return value == text and type(value) is str  # the fast path reads it exactly as YAML would
    try:
        return same(load_yaml("k: " + text), {"k": text})
    except yaml.YAMLError:
        return False


def render_block(key: str, value: Any, scalar: Callable[[Any], str] = scalar) -> list[str]:
    """``key: value`` lines: scalars inline (written by ``scalar``: :func:`carry_scalar` for the carry's key),
    lists as ``  - item``, one level of mapping.

    A key YAML would not read back as the same text (``1``, ``true``, ``a: b``) is double-quoted.
    """
    key = _top_key(key)
    if isinstance(value, list):
        if not value:
            return [f"{key}: []"]
        if all(not isinstance(v, (list, dict)) for v in value):
            return [f"{key}:"] + [f"  - {scalar(v)}" for v in value]
        return [f"{key}: {_flow(value)}"]
    if isinstance(value, dict):
        if not value:
            return [f"{key}: {{}}"]
        if all(not isinstance(v, (list, dict)) for v in value.values()):
            return [f"{key}:"] + [f"  {_key(k)}: {scalar(v)}" for k, v in value.items()]
        return [f"{key}: {_flow(value)}"]
    return [f"{key}: {scalar(value)}"]


def scalar_line_start(key: str) -> str:
    """What :func:`render_block` writes before a scalar value of ``key``: ``key: ``, the key quoted if need be.

    For a caller that puts a very long value after it without another copy of the line (a note's carry).
    """
    return f"{_top_key(key)}: "


def _flow(value: Any) -> str:
    """Nested data as one line of YAML flow (JSON, with YAML's unprintables escaped)."""
    return _YAML_UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", json.dumps(value, ensure_ascii=False))


def _top_key(key: str) -> str:
    written = _KEYS_WRITTEN.get(key)
    if written is None:
        written = _top_key_text(key)
        remember(_KEYS_WRITTEN, key, written)
    return written


#: :func:`_top_key_text` of the keys written so far (a store uses a few dozen).
_KEYS_WRITTEN: dict[str, str] = {}


#: A key that is plain in every YAML reader: a name, nothing more (``a: b`` is not one).
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def _top_key_text(key: str) -> str:
    """A top-level key as :func:`render_block` writes it, worked out anew."""
    if _PLAIN_KEY.fullmatch(key) and key not in _WORDS:
        return key
    return key if _plain_ok(key) and ":" not in key else double_quoted(key)


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.-]*", key) else double_quoted(key)


def splice(rendered: bytes | None, marker: str, carry: str | None, key: bytes, parent: bytes | None = None,
           scalar: Callable[[Any], str] = carry_scalar) -> bytes | None:
    """A file wearing the carry ``carry`` (a string; None: none), from the same file wearing ``marker``
    there instead; None when the file does not show where (the writer then renders the record again). The
    memoir, claude and memfmt writers' ``splice`` (docs/performance.md, "the splice").

    Every other byte is the same both ways: the carry is one scalar on the frontmatter line ``key`` starts,
    written by ``scalar`` (:func:`carry_scalar`; memfmt's own for its files), which writes any text on one line
    whatever its depth; ``parent`` is the line
    of the mapping the key is in, if any (claude's ``memconv:``, above ``  carry:`` and the writer's other
    lines under it). With no carry the key's line goes, and the parent's with it when nothing else is under it;
    a frontmatter left with no line is declined (a bare file stays bare). The marker's line must stand once in
    the file, at the start of a frontmatter line.
    """
    if not isinstance(rendered, bytes) or not rendered.startswith(b"---\n"):
        return None
    needle = key + scalar(marker).encode("utf-8") + b"\n"
    at = rendered.find(needle)
    if at < 0 or rendered[at - 1:at] != b"\n" or rendered.find(needle, at + 1) >= 0:
        return None
    end = at + len(needle)
    if rendered.find(b"\n---", 3) + 1 < end:
        return None  # not in the frontmatter
    if parent is not None:
        top = at  # the first line of the mapping's block, above the key's
        while True:
            line = rendered.rfind(b"\n", 0, top - 1) + 1
            if not rendered.startswith(b" ", line):
                break
            top = line
        line = rendered.rfind(b"\n", 0, top - 1) + 1
        if rendered[line:top] != parent:
            return None
        if carry is None and top == at and not rendered.startswith(b" ", end):
            at = line  # nothing else under the parent: its line goes too
    if carry is not None:
        return replaced(rendered, at + len(key), end - 1, scalar(carry).encode("utf-8"))
    if at == len(b"---\n") and rendered.startswith(b"---", end):
        return None  # the frontmatter would be left with no line
    return replaced(rendered, at, end, b"")
