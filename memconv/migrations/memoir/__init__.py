"""memoir's ladders: ``session.json`` (``version``) and entries (``schema_version``).

memoir spec §6: entries without ``schema_version`` are version 1; the session
file must carry an integer ``version``. Version 1 is the only version the
spec defines so far, so the entry ladder has no steps yet, and the session
ladder has one: the unversioned (or ``0``) file of early memoir-cli builds.
"""

from __future__ import annotations

from typing import Any

from .. import Ladder, Unreadable
from . import session_v0_to_v1

SESSION = Ladder(
    subject="memoir session.json",
    versions=(0, 1),
    steps={0: session_v0_to_v1.step},
    describe={0: session_v0_to_v1.DESCRIPTION},
)

ENTRY = Ladder(subject="memoir entry", versions=(1,), steps={}, describe={})


def session_version(document: Any) -> int:
    """The ``version`` of a parsed session.json; missing means 0.

    Only a JSON integer is a version. The reference tool reads the string
    ``"2"`` as 0 and migrates it; that would misread a newer file, so here it
    is :class:`Unreadable` and the file is quarantined.
    """
    if not isinstance(document, dict):
        raise Unreadable(f"memoir session.json is a JSON {json_type(document)}, not an object")
    if "version" not in document:
        return 0
    version = document["version"]
    if type(version) is not int or version < 0:
        raise Unreadable(
            f"memoir session.json has version {version!r}, which is not a non-negative integer"
            " — fix it by hand to the integer it should be"
        )
    return version


def entry_version(frontmatter: dict[str, Any]) -> int:
    """The ``schema_version`` of an entry's frontmatter; absent means 1."""
    if "schema_version" not in frontmatter:
        return 1
    version = frontmatter["schema_version"]
    if type(version) is not int or version < 1:
        raise Unreadable(f"schema_version {version!r} is not a positive integer")
    return version


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return type(value).__name__
