"""memspec's schema rules, as a checker for tests: what the reference reader accepts without a warning.

Written from memspec 0.7.2's zod schema (``src/lib/schema.ts``) and the seed's
newer fields (``scope``, probes, ``verified_with: probe``), plus the layout
rules of its store (file named ``<id>.md``, in the folder its state, kind and
tier imply). Used to check that migrated and code-built output is a valid
current memspec store; it is not memconv's reader and shares no code with it.
"""

from __future__ import annotations

import re
from datetime import datetime

import yaml

ID = re.compile(r"^ms_[A-Z0-9]{26}$")
#: What ``Date.parse`` accepts in practice for these stores: ISO dates and date-times.
ISO = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$")
#: zod ``z.iso.datetime()``: a UTC date-time ending in ``Z``.
ISO_DATETIME_Z = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z$")
LEGACY_KEYS = ("confidence", "decay_after", "corrects", "corrected_by", "correction_reason")


class _Loader(yaml.SafeLoader):
    """YAML as memspec's js-yaml 3 reads it: timestamps kept as text (js-yaml would make Dates; memspec
    turns them back into ISO), numbers by js-yaml's own rules (``lib/js-yaml/type/int.js`` and
    ``float.js`` of js-yaml 3.15, written here from its source: nothing ending in ``_`` is a number,
    and a float needs no dot, ``1e3``), not PyYAML's YAML 1.1, which reads ``0_`` as 0."""


_JS_YAML = {
    "tag:yaml.org,2002:int": re.compile(r"""^(?!.*_$)[-+]?(?:0|0b[01_]*[01][01_]*|0x[0-9a-fA-F_]*[0-9a-fA-F][0-9a-fA-F_]*
                                        |0[0-7_]*[0-7][0-7_]*|[1-9][0-9_]*(?::[0-5]?[0-9])*)$""", re.X),
    "tag:yaml.org,2002:float": re.compile(r"""^(?!.*_$)(?:[-+]?(?:0|[1-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?
                                          |\.[0-9_]+(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
                                          |[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$""", re.X),
    "tag:yaml.org,2002:bool": re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),  # not YAML 1.1's yes/no
}
_Loader.yaml_implicit_resolvers = {}
for _tag, _pattern in _JS_YAML.items():  # js-yaml tries int before float
    _Loader.add_implicit_resolver(_tag, _pattern, list("tTfF" if _tag.endswith("bool") else "-+0123456789."))
for _first, _resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items():
    for _tag, _pattern in _resolvers:
        if _tag not in _JS_YAML and _tag != "tag:yaml.org,2002:timestamp":
            _Loader.add_implicit_resolver(_tag, _pattern, [_first])


def _date(value) -> bool:
    if not isinstance(value, str) or not ISO.match(value):
        return False
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def frontmatter(text: str) -> dict:
    assert text.startswith("---\n"), "a memspec record starts with a frontmatter block"
    block, sep, _ = text[4:].partition("\n---\n")
    assert sep, "the frontmatter block is closed"
    data = yaml.load(block, Loader=_Loader)
    assert isinstance(data, dict), "frontmatter is a mapping"
    return data


def problems(path: str, text: str) -> list[str]:
    """Every schema rule ``text`` (a record at ``path`` relative to ``.memspec``) breaks."""
    out = []
    fm = frontmatter(text)

    def bad(message):
        out.append(f"{path}: {message}")

    if not isinstance(fm.get("id"), str) or not ID.match(fm["id"]):
        bad("id must be ms_ followed by a 26-char ULID")
    kind = fm.get("kind", "claim")
    if kind not in ("claim", "observation"):
        bad(f"kind {kind!r}")
    if kind == "claim" and fm.get("type") not in ("fact", "decision", "procedure"):
        bad("claims require a type of fact, decision or procedure")
    if fm.get("state") not in ("active", "superseded", "retired"):
        bad(f"state {fm.get('state')!r}")
    if not _date(fm.get("created")):
        bad("created must be an ISO 8601 date")
    if not isinstance(fm.get("source"), str) or not fm["source"]:
        bad("source must be a non-empty string")
    if "source_kind" in fm and fm["source_kind"] not in ("operator", "agent", "import"):
        bad("source_kind")
    if not (isinstance(fm.get("tags", []), list) and all(isinstance(t, str) for t in fm.get("tags", []))):
        bad("tags must be a list of strings")
    if "check_by" not in fm or not (fm["check_by"] == "never" or _date(fm["check_by"])):
        bad("check_by must be present: an ISO 8601 date or \"never\"")
    for key in ("stale", "pinned"):
        if key in fm and not isinstance(fm[key], bool):
            bad(f"{key} must be a boolean")
    for key in ("last_verified", "expires"):
        if key in fm and not _date(fm[key]):
            bad(f"{key} must be an ISO 8601 date")
    if "verified_with" in fm and fm["verified_with"] not in ("anchor", "probe", "operator", "evidence", "assertion"):
        bad("verified_with")
    if "anchors" in fm:
        anchors = fm["anchors"]
        if not isinstance(anchors, list) or not all(
                isinstance(a, dict) and isinstance(a.get("file"), str) and isinstance(a.get("sha"), str)
                and isinstance(a.get("repo", ""), str) for a in anchors):
            bad("anchors must be a list of {file, sha, repo?}")
    for key in ("supersedes", "conflicts_with", "refines", "supports", "depends_on"):
        if key in fm and not (isinstance(fm[key], list) and all(isinstance(v, str) for v in fm[key])):
            bad(f"{key} must be a list of ids")
    for key in ("superseded_by", "supersede_reason", "scope"):
        if key in fm and not isinstance(fm[key], str):
            bad(f"{key} must be a string")
    for key in ("valid_from", "valid_to"):
        if key in fm and not (isinstance(fm[key], str) and ISO_DATETIME_Z.match(fm[key])):
            bad(f"{key} must be an ISO date-time ending in Z")
    if "ext" in fm and not isinstance(fm["ext"], dict):
        bad("ext must be a mapping")
    for key in LEGACY_KEYS:
        if key in fm:
            bad(f"legacy key {key} is still present")
    if isinstance(fm.get("id"), str) and not path.endswith(f"/{fm['id']}.md"):
        bad("file name is not <id>.md")
    folder = path.rsplit("/", 1)[0]
    if fm.get("state") != "active":
        expected = ("archive",)
    elif kind == "observation":
        expected = ("observations",)
    elif fm.get("source_kind") == "operator":
        expected = (f"memory/operator/{fm.get('type')}s",)
    else:
        expected = (f"memory/{fm.get('type')}s",)
    if not (folder in expected or (expected == ("observations",) and re.match(r"^observations/\d{4}-\d{2}-\d{2}", folder))):
        bad(f"in {folder}/, but its state, kind and tier put it in {expected[0]}/")
    return out
