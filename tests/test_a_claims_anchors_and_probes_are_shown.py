"""A memspec claim's anchors, probes and supersede reason are shown in a target that has no field for them.

``anchors`` (a file and the git blob sha the claim was pinned to) and ``probes`` (a command whose output witnessed
it) were carried into memoir, Claude and memfmt, and nowhere else: the target's user never saw which files or
commands back a claim (principle 1); nor why it replaced another (``supersede_reason``, a person's words). They are now written where the target shows the record's text, a line each:
an ``**Anchors:**`` or ``**Probes:**`` block in a body, a labelled fact (``**Anchor:** …``) of a memfmt entity.
The carry still holds them exactly, so the way back to memspec gives the same bytes. So are the words in a claim's
``ext`` (2026-12-05: a verification's ``evidence``, the ``reason`` an edge was removed, a key written by hand), a line
per key under ``**Extensions:**``.
"""

from __future__ import annotations

import pytest

from .conftest import GOLDEN, run_json, tree

STORE = GOLDEN / "memspec" / "current-every-field" / "input"  # a claim anchored to two files
PROBED = GOLDEN / "memspec" / "canonical" / "input"  # claims with probes

ANCHORS = ("src/auth/jwt.ts @ 0123456789abcdef0123456789abcdef01234567",
           "lib/session.go @ 89abcdef0123456789abcdef0123456789abcdef (repo: ../session-service); line_hint: 42")
PROBES = ("git config --get core.autocrlf; recorded_at: 2026-08-05T10:30:00.000Z", "cat .nvmrc")


def _shown(out, text):
    """The files of ``out`` outside memconv's own folder that say ``text`` outside their carry line."""
    found = []
    for path, data in tree(out).items():
        if path.startswith(".memconv") or "/.memconv/" in path:
            continue
        lines = [line for line in data.decode().split("\n") if not line.lstrip().startswith(("memconv:", "carry:"))]
        if any(text in line for line in lines):
            found.append(path)
    return found


@pytest.mark.parametrize("target", ["memoir", "claude"])
def test_a_bodys_anchors_and_probes_are_lines_under_their_label(tmp_path, target):
    run_json(f"memspec-to-{target}", str(STORE), str(tmp_path / "a"))
    run_json(f"memspec-to-{target}", str(PROBED), str(tmp_path / "p"))
    [anchored] = _shown(tmp_path / "a", f"- {ANCHORS[0]}")
    text = (tmp_path / "a" / anchored).read_text()
    assert f"**Anchors:**\n\n- {ANCHORS[0]}\n- {ANCHORS[1]}\n" in text
    [probed] = _shown(tmp_path / "p", f"- {PROBES[0]}")
    assert f"**Probes:**\n\n- {PROBES[0]}\n- {PROBES[1]}\n" in (tmp_path / "p" / probed).read_text()


def test_a_memfmt_entity_shows_each_as_a_labelled_fact(tmp_path):
    run_json("memspec-to-memfmt", str(STORE), str(tmp_path / "a"))
    run_json("memspec-to-memfmt", str(PROBED), str(tmp_path / "p"))
    for out, label, lines in ((tmp_path / "a", "Anchor", ANCHORS), (tmp_path / "p", "Probe", PROBES)):
        for line in lines:
            assert _shown(out, f"- **{label}:** {line}\n") or _shown(out, f"- **{label}:** {line}"), (label, line)


@pytest.mark.parametrize("target", ["memoir", "claude", "memfmt"])
@pytest.mark.parametrize("store", [STORE, PROBED], ids=["anchors", "probes"])
def test_the_way_back_gives_memspecs_bytes(tmp_path, target, store):
    run_json(f"memspec-to-{target}", str(store), str(tmp_path / "out"))
    run_json(f"{target}-to-memspec", str(tmp_path / "out"), str(tmp_path / "back"))
    before, back = tree(store), tree(tmp_path / "back")
    claims = [p for p in before if "/memory/" in p and p.endswith(".md")]
    assert claims
    for path in claims:
        assert back.get(path) == before[path], path


@pytest.mark.parametrize("target, line", [("memoir", "**Supersede reason:** {}\n"), ("claude", "**Supersede reason:** {}\n"),
                                          ("memfmt", "- **Supersede reason:** {}\n")])
def test_the_reason_a_claim_superseded_another_is_a_labelled_line(tmp_path, target, line):
    """memspec writes ``supersede_reason`` on the claim that replaced another too: words a person wrote."""
    run_json(f"memspec-to-{target}", str(STORE), str(tmp_path / "out"))
    reason = ("The old claim said sessions were cookie-only; the auth rewrite moved every client to short-lived JWTs "
              "with refresh tokens, so the claim was replaced.")
    [shown] = _shown(tmp_path / "out", reason)
    assert line.format(reason) in (tmp_path / "out" / shown).read_text()


def test_memspec_does_not_write_them_twice(tmp_path):
    """memspec holds them in its own keys: converted from another dialect they are not written into the body."""
    run_json("memspec-to-memoir", str(STORE), str(tmp_path / "memoir"))
    run_json("memoir-to-memspec", str(tmp_path / "memoir"), str(tmp_path / "back"))
    assert not _shown(tmp_path / "back", "**Anchors:**")


@pytest.mark.parametrize("target", ["memoir", "claude"])
def test_an_edited_body_comes_home_without_the_block(tmp_path, target):
    """The body edited in the target (a paragraph added): the edit comes home, the block memconv wrote does not
    (it would be said twice, beside the claim's own anchors)."""
    run_json(f"memspec-to-{target}", str(STORE), str(tmp_path / "out"))
    [anchored] = _shown(tmp_path / "out", f"- {ANCHORS[0]}")
    path = tmp_path / "out" / anchored
    path.write_text(path.read_text().rstrip("\n") + "\n\nRotation was added in April.\n")
    run_json(f"{target}-to-memspec", str(tmp_path / "out"), str(tmp_path / "back"))
    [claim] = [p for p, data in tree(tmp_path / "back").items() if b"Rotation was added in April." in data]
    text = (tmp_path / "back" / claim).read_text()
    assert "**Anchors:**" not in text and "- src/auth/jwt.ts @" not in text and "**Supersede reason:**" not in text
    assert "**Extensions:**" not in text and "  last_verification:\n" in text
    assert "  - file: src/auth/jwt.ts\n" in text


EVIDENCE = "last_verification: (at: 2026-04-02T08:00:00.000Z; source: human:ana; evidence: read src/auth/jwt.ts after the rewrite)"
REMOVAL = ("edge_removals: (type: refines; to: ms_01KNH5F520795G44J2YZX6ZWCR; removed_at: 2026-04-03T09:00:00.000Z; "
           "removed_by: human:ana; reason: wrong parent: that record is about billing)")


@pytest.mark.parametrize("target, line", [("memoir", "- {}\n"), ("claude", "- {}\n"), ("memfmt", "- **Extension:** {}\n")])
def test_the_words_in_a_claims_extensions_are_shown(tmp_path, target, line):
    # Watched fail before (2026-12-05): the evidence and the removal's reason were in the carry alone.
    run_json(f"memspec-to-{target}", str(STORE), str(tmp_path / "out"))
    [shown] = _shown(tmp_path / "out", "read src/auth/jwt.ts after the rewrite")
    text = (tmp_path / "out" / shown).read_text()
    assert line.format(EVIDENCE) in text and line.format(REMOVAL) in text
    assert "wrong parent: that record is about billing" in text
    if target != "memfmt":
        assert "**Extensions:**\n\n- confirmations: 2\n" in text
    [decision] = _shown(tmp_path / "out", "rejected: mongodb, dynamo")  # a key of ext written by hand
