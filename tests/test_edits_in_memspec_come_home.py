"""What memspec's own commands do to a converted record wins on the way home (no node needed).

memspec's ``supersede`` and ``sweep`` change a record's state, its ``verify`` adds
``last_verified``, ``verified_with`` and ``ext.last_verification``. Here the edit is made
on the model read from memspec, as memspec's commands leave the file; the real
commands are run in ``test_real_tools_memspec_edits.py``.
"""

from __future__ import annotations

from memconv import dialects
from memconv.model import Lifecycle, Record, Store

from .conftest import GOLDEN
from .convert_helpers import convert_files, read_files


def _into_memspec(store: Store) -> Store:
    files, _ = convert_files(store, "memspec")
    return read_files(files, "memspec")


def _by_title(store: Store, title: str) -> Record:
    return next(r for r in store.records if r.title == title)


def _memoir(*records: Record) -> Store:
    return Store(dialect="memoir", records=list(records))


def test_a_fact_retracted_in_memspec_comes_home_as_a_note_not_live():
    ms = _into_memspec(_memoir(Record(kind="fact", link="fact_port", title="Port", body="The API listens on 8080.\n",
                                      created="2026-01-02")))
    _by_title(ms, "Port").lifecycle = Lifecycle("superseded", reason="moved to 9090")
    files, report = convert_files(ms, "memoir")
    back = read_files(files, "memoir")
    assert [r.link for r in back.records] == [], "a retracted fact is not written as a live memoir entry"
    [entry] = [f for f in report.files if f.target_kind == "note"]
    assert entry.target.startswith(".memconv/notes/") and entry.source.startswith(".memspec/")
    assert any("superseded in memspec" in w and "memoir cannot mark a fact so" in w for w in entry.warnings)
    # The note is memconv's: converting the memoir store to memspec again gives the retracted claim back.
    again = _into_memspec(back)
    assert [(r.title, r.lifecycle.state) for r in again.records] == [("Port", "superseded")]


def test_a_decision_retracted_in_memspec_with_a_date_is_hidden_in_memoir():
    ms = _into_memspec(_memoir(Record(kind="decision", link="decision_db", title="Use SQLite",
                                      body="Local cache only.\n", why="No daemon.", created="2026-01-02")))
    _by_title(ms, "Use SQLite").lifecycle = Lifecycle("retired", at="2026-02-03T00:00:00.000Z")
    files, _ = convert_files(ms, "memoir")
    [decision] = read_files(files, "memoir").records
    assert decision.lifecycle.state == "hidden", "memoir's own word for a decision taken back"
    assert b"hidden: true\nhidden_at: 2026-02-03T00:00:00.000Z" in files["memory/decision_db.md"]


def test_a_decision_retracted_in_memspec_without_a_date_is_a_note():
    # memoir's validate refuses ``hidden: true`` without ``hidden_at``, and memspec's supersede records
    # no date: the decision is kept out of the live set instead of given an invented date.
    ms = _into_memspec(_memoir(Record(kind="decision", link="decision_db", title="Use SQLite",
                                      body="Local cache only.\n", why="No daemon.", created="2026-01-02")))
    _by_title(ms, "Use SQLite").lifecycle = Lifecycle("superseded", reason="taken back")
    files, report = convert_files(ms, "memoir")
    assert read_files(files, "memoir").records == []
    assert [f.target_kind for f in report.files] == ["note"]


def test_a_state_the_record_came_with_is_not_taken_for_an_edit():
    # memoir stores made by a program may hold a retired fact; memspec keeps it retired, and it comes home as it
    # left: a note (memoir cannot mark a fact retired), said to be so from the source, not since its conversion.
    # Before (2026-12-07) it came home a live fact, its state dropped, and went to memspec again active.
    fact = Record(kind="fact", link="fact_old", title="Old", body="Was true.\n", lifecycle=Lifecycle("retired"))
    files, report = convert_files(_into_memspec(_memoir(fact)), "memoir")
    assert not any(p.startswith("memory/") for p in files), "a retired fact is never shown as live"
    [entry] = [f for f in report.files if f.target_kind == "note"]
    assert entry.warnings == ["kept as a note, not as a current memory: retired in the source; memoir cannot mark "
                              "it so"], "nobody retracted it in memspec"
    again = _into_memspec(read_files(files, "memoir"))
    assert [(r.title, r.lifecycle.state) for r in again.records] == [("Old", "retired")]


def test_a_verification_in_memspec_rides_home_and_back():
    ms = _into_memspec(_memoir(Record(kind="fact", link="fact_port", title="Port", body="8080.\n",
                                      created="2026-01-02")))
    claim = _by_title(ms, "Port")
    claim.last_verified, claim.verified_with = "2026-03-01T10:00:00.000Z", "evidence"
    claim.ext = {**claim.ext, "last_verification": {"at": "2026-03-01T10:00:00.000Z", "evidence": "read the config"}}
    files, report = convert_files(ms, "memoir")
    [entry] = [f for f in report.files if f.target == "memory/fact_port.md"]
    assert list(entry.carried) == ["ext", "last_verified", "verified_with"] and not entry.dropped
    assert b"read the config" in files["memory/fact_port.md"]
    home = read_files(files, "memoir")
    again = _by_title(_into_memspec(home), "Port")
    assert (again.last_verified, again.verified_with) == ("2026-03-01T10:00:00.000Z", "evidence")
    assert again.ext["last_verification"] == {"at": "2026-03-01T10:00:00.000Z", "evidence": "read the config"}
    # memoir→memoir keeps it too, and the record is still memoir's own.
    files2, _ = convert_files(home, "memoir")
    assert files2["memory/fact_port.md"] == files["memory/fact_port.md"]


def test_a_verification_dropped_with_lossy_is_reported():
    ms = _into_memspec(_memoir(Record(kind="fact", link="fact_port", title="Port", body="8080.\n",
                                      created="2026-01-02")))
    _by_title(ms, "Port").verified_with = "evidence"
    files, report = convert_files(ms, "memoir", lossy=True)
    assert ["verified_with"] in [f.dropped for f in report.files]


def test_an_inline_bullet_retracted_in_memspec_leaves_the_index():
    source = dialects.get("claude").read(GOLDEN / "claude" / "inline-only" / "input")
    ms = _into_memspec(source)
    bullet = next(r for r in ms.records if r.kind == "fact" and r.title and r.title.startswith("Staging"))
    bullet.lifecycle = Lifecycle("superseded")
    files, report = convert_files(ms, "claude")
    index = files["MEMORY.md"].decode()
    assert "staging.example.com" not in index, "the retracted bullet is not shown live in MEMORY.md"
    original = (GOLDEN / "claude" / "inline-only" / "input" / "MEMORY.md").read_text()
    assert index == "".join(line for line in original.splitlines(True) if "staging.example.com" not in line)
    assert any("taken out of MEMORY.md" in w for w in report.warnings)


def test_an_undated_record_is_dated_alike_in_the_read_back_and_the_output():
    # The working set's rendering dates the memspec store (its created_at); the read-back that decides
    # what to carry must see the same date, or the way back takes memspec's date for an edit.
    from memconv.model import WorkingSet

    ws = WorkingSet({"version": 1, "created_at": "2026-01-01T00:00:00.000Z", "machines": {},
                     "current": {"goals": [{"text": "ship"}], "next_actions": [], "open_questions": [],
                                 "decisions": []}, "history": []})
    fact = Record(kind="fact", link="fact_undated", title="Undated", body="No date.\n")
    files, report = convert_files(_into_memspec(Store(dialect="memoir", records=[fact], working_set=ws)), "memoir")
    [back] = read_files(files, "memoir").records
    assert back.created is None and not any("edited in memspec" in w for w in report.warnings)


def test_a_superseded_memspec_claim_is_not_a_live_memoir_fact():
    # memoir marks "superseded" only on a decision (superseded_by): a superseded fact would read as live.
    store = dialects.get("memspec").read(GOLDEN / "memspec" / "current-every-field" / "input")
    files, report = convert_files(store, "memoir")
    assert not any(r.lifecycle.state == "superseded" and r.kind == "fact" for r in read_files(files, "memoir").records)
    assert any(f.target_kind == "note" and any("cannot mark it so" in w for w in f.warnings) for f in report.files)
    assert b"Sessions are cookie-only" not in b"".join(b for p, b in files.items() if p.startswith("memory/"))


def test_a_bare_claude_file_verified_in_memspec_stays_bare_at_home():
    source = dialects.get("claude").read(GOLDEN / "claude" / "mixed-project" / "input")
    ms = _into_memspec(source)
    bare = (GOLDEN / "claude" / "mixed-project" / "input" / "deploy-notes.md").read_bytes()
    claim = next(r for r in ms.records if r.title == "Deploy notes")
    claim.last_verified, claim.verified_with = "2026-03-01T10:00:00.000Z", "evidence"
    files, report = convert_files(ms, "claude")
    assert files["deploy-notes.md"] == bare, "a bare file stays bare: its carry waits in a note"
    again = _into_memspec(read_files(files, "claude"))
    assert any(r.verified_with == "evidence" and r.last_verified == "2026-03-01T10:00:00.000Z" for r in again.records)
