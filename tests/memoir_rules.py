"""memoir conformance for tests: the JSON Schemas plus the reference validator's error rules.

FORMATS.md §1 lists what `memoir validate` reports as errors; these are the
ones a canonical memoir output must never trigger.
"""

from __future__ import annotations

import datetime as dt
import json
import re

import jsonschema

from memconv.frontmatter import split
from memconv.text import decode

from .conftest import SCHEMAS

ENTRY_SCHEMA = json.loads((SCHEMAS / "entry.schema.json").read_text())
SESSION_SCHEMA = json.loads((SCHEMAS / "session.schema.json").read_text())
_DATE_KEYS = ("created", "updated", "date", "set_on", "added", "done_at", "hidden_at", "last_fired")
_ISO_START = re.compile(r"^\d{4}-\d{2}-\d{2}")
_FORMATS = jsonschema.Draft202012Validator.FORMAT_CHECKER


def _parseable(value: str) -> bool:
    if not _ISO_START.match(value):
        return False
    try:
        dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
        return True
    except ValueError:
        return False


def entry_errors(raw: bytes, path: str = "entry.md") -> list[str]:
    """Every error `memoir validate` (FORMATS.md §1) and the entry schema would report."""
    text, _ = decode(raw, path)
    fm, body = split(text, path)
    if fm is None:
        return ["no frontmatter"]
    values = fm.values
    errors = [f"schema: {e.message}" for e in
              jsonschema.Draft202012Validator(ENTRY_SCHEMA, format_checker=_FORMATS).iter_errors(values)]
    if not isinstance(values.get("name"), str) or not values["name"].strip():
        errors.append("name missing or blank")
    kind = values.get("type")
    if kind == "decision" and values.get("hidden") is True and "hidden_at" not in values:
        errors.append("hidden decision without hidden_at")
    if kind == "lesson":
        if not values.get("trigger"):
            errors.append("lesson without trigger")
        if not values.get("how_to_apply"):
            errors.append("lesson without how_to_apply")
        if "fired_count" in values and (type(values["fired_count"]) is not int or values["fired_count"] < 0):
            errors.append("fired_count not an integer >= 0")
    if kind == "next_action" and "added" not in values:
        errors.append("next_action without added")
    for key in _DATE_KEYS:
        if key in values and not (isinstance(values[key], str) and _parseable(values[key])):
            errors.append(f"{key} is not an ISO date: {values[key]!r}")
    if "schema_version" in values and (type(values["schema_version"]) is not int or values["schema_version"] < 1):
        errors.append("schema_version not a positive integer")
    return errors


def session_errors(raw: bytes) -> list[str]:
    document = json.loads(raw.decode("utf-8"))
    return [e.message for e in
            jsonschema.Draft202012Validator(SESSION_SCHEMA, format_checker=_FORMATS).iter_errors(document)]
