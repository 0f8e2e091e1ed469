"""An item of the working set's lists (or a history row) written as a bare value is shown in the target, and comes home.

memoir's spec wants every item of ``goals``, ``next_actions``… and every ``history`` row to be an object, and
``memoir validate`` rejects a file where one is a bare text (``"next_actions": ["Call Bob about the invoice"]``),
as a person or a script writing ``session.json`` by hand leaves it. The words are still the person's. The
working set's rendering skipped such an item with nothing said, so they travelled only in the note holding the
exact JSON, which no tool of the target shows or searches, while the same bare text in a list the spec does not
name was shown (``tests/test_unknown_session_lists_reach_the_target.py``). Now it is shown by the same rule
(``native.as_line``); the file comes home byte for byte.
"""

from __future__ import annotations

import pytest

from memconv import dialects

from .conftest import tree
from .convert_helpers import canonical_memoir_with_session, convert_dir, convert_files

BARE = {"goals": "Reach the quokka milestone", "next_actions": "Call Bob about the invoice",
        "open_questions": "Who owns the zeppelin budget", "decisions": "Drop the marimba exporter",
        "parked_actions": "Port the ocelot parser", "completed_actions": "Filed the walrus report"}


def _bare_items(document):
    for key, text in BARE.items():
        document["current"].setdefault(key, []).append(text)
    document["history"].append("2026-08-07 planned the narwhal sprint")


def _store(tmp_path):
    return canonical_memoir_with_session(tmp_path, _bare_items)


@pytest.mark.parametrize("target", ["claude", "memspec", "memfmt"])
def test_a_bare_item_is_shown_and_the_way_back_is_exact(tmp_path, target):
    src = _store(tmp_path)
    files, _ = convert_files(dialects.get("memoir").read(src), target)
    shown = b"".join(b for p, b in files.items() if ".memconv/" not in p)
    for text in [*BARE.values(), "2026-08-07 planned the narwhal sprint"]:
        assert text.encode() in shown, text
    there = convert_dir(src, target, tmp_path / "there")
    back = convert_dir(there, "memoir", tmp_path / "back")
    assert {p: b for p, b in tree(back).items() if not p.startswith(".memconv/")} == tree(src)
