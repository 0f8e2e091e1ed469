"""memspec's own commands on a converted store, then the way back: nothing is lost.

Every golden store of another dialect is converted to memspec; memspec's CLI
then does what its users do — ``verify`` a claim, ``supersede`` (retract)
another, ``sweep`` (retire) whatever is stale — and the store is converted
back to where it came from. memspec rewrites a record keeping only ``ext``
and its schema's keys (``../shared/reference-tools/README.md``), so anything
memconv put elsewhere would be gone; memspec's ``supersede`` and ``sweep``
write into ``archive/``, which must exist.

Which records ``sweep`` finds stale depends on the day it runs (memspec reads
its clock); the assertions hold whichever it retires.
"""

from __future__ import annotations

import pytest

from memconv import dialects, pipeline
from memconv.converters import carry as carrying
from memconv.report import Report

from .conftest import GOLDEN, write_files
from .convert_helpers import golden_inputs
from .reference_tools import memoir_validate, memspec, memspec_load, memspec_sweep, needs_memoir, needs_memspec

#: What memspec's commands change on a record: its review and witness fields, its state.
#: Every other field must come back as the source had it.
EDITED_BY_MEMSPEC = {"check_by", "stale", "last_verified", "verified_with", "ext", "lifecycle"}

CASES = [pytest.param(d, n, id=f"{d}/{n}") for d, n in golden_inputs() if d != "memspec"]


def _write(store, target, folder):
    report = Report(command="convert", input=str(folder))
    plan = pipeline.plan(store, target, report)
    write_files(folder, plan.files)
    return report


def _edit_in_memspec(out):
    """verify one active claim, retract another, sweep the stale: (verified id, retracted id)."""
    before = memspec_load(out)
    claims = [i for i in before.items if i["state"] == "active" and i["type"]]
    assert claims, "the conversion holds claims to edit"
    verified, retracted = claims[0]["id"], claims[-1]["id"]
    done = memspec(out, "verify", verified, "--evidence", "checked in a test")
    assert done.returncode == 0 and "Verified" in done.stdout, done.stdout + done.stderr
    if len(claims) > 1:
        done = memspec(out, "supersede", retracted, "--reason", "retracted in a test", "--override-operator")
        assert done.returncode == 0 and "Retracted" in done.stdout, done.stdout + done.stderr
    status, said = memspec_sweep(out)
    assert status == 0 and ("Retired" in said or "No stale items" in said), said
    after = memspec_load(out)
    assert after.problems == [], "memspec reads every record it rewrote"
    assert sorted(i["id"] for i in after.items) == sorted(i["id"] for i in before.items), \
        "memspec's commands move records, never delete them"
    return verified, retracted, {i["id"]: i["state"] for i in after.items}


@needs_memspec
@pytest.mark.parametrize(("dialect", "name"), CASES)
def test_a_store_edited_by_memspec_comes_back_with_nothing_lost(dialect, name, tmp_path):
    source = dialects.get(dialect).read(GOLDEN / dialect / name / "input")
    out = tmp_path / "memspec"
    _write(source, "memspec", out)
    for folder in ("archive", "observations"):
        assert (out / ".memspec" / folder).is_dir(), f"memspec's {folder}/ is there for its commands"
    _edit_in_memspec(out)

    edited = dialects.get("memspec").read(out)
    home = tmp_path / "back"
    report = _write(edited, dialect, home)
    back = dialects.get(dialect).read(home)
    returned = {r.link: r for r in back.records}
    noted = {f.source for f in report.files if f.target_kind == "note"}
    for record in source.records:
        if record.link not in returned:
            # Kept out of the live set (retired in memspec, say): then the report says where it went.
            assert noted, f"{record.link}: neither a record nor a note on the way back"
            continue
        was, now = carrying.parts(record), carrying.parts(returned[record.link])
        lost = {k: (was.get(k), now.get(k)) for k in set(was) | set(now)
                if k not in EDITED_BY_MEMSPEC and was.get(k) != now.get(k)}
        assert lost == {}, f"{record.link}: every field memspec did not edit comes back as it was"
    # Nothing is dropped but what memspec's commands added to a rendering (the working set's claim, an inline
    # bullet's), which comes home from its note and has no place for it: that is counted, not only warned about.
    assert [f.dropped for f in report.files if f.dropped and not (f.target_kind in ("inline", "working_set")
                                                                  and set(f.dropped) <= EDITED_BY_MEMSPEC)] == [], \
        "nothing else is dropped"
    assert len(back.records) + len(noted) >= len(source.records), "every record comes back"


def _fields_survive_a_rewrite(dialect, name, tmp_path):
    """Fields memspec has no key for, on converted records, still there after memspec rewrote them."""
    source = dialects.get(dialect).read(GOLDEN / dialect / name / "input")
    out = tmp_path / "memspec"
    _write(source, "memspec", out)
    nested = {}
    for item in memspec_load(out).items:
        text = (out / item["file"]).read_text(encoding="utf-8")
        if "\n    fields:\n" in text:
            nested[item["id"]] = item
    for id_ in nested:
        done = memspec(out, "verify", id_, "--evidence", "checked in a test")
        assert done.returncode == 0, done.stdout + done.stderr
    return source, out, nested


UNKNOWN_FIELDS = [("claude", "mixed-project"), ("memfmt", "full"), ("memoir", "canonical")]


@needs_memspec
@pytest.mark.parametrize(("dialect", "name"), UNKNOWN_FIELDS, ids=[f"{d}/{n}" for d, n in UNKNOWN_FIELDS])
def test_fields_memspec_has_no_key_for_survive_its_rewrite(dialect, name, tmp_path):
    source, out, nested = _fields_survive_a_rewrite(dialect, name, tmp_path)
    assert nested, "the store has records with fields memspec has no key for"
    for id_, item in nested.items():
        text = (out / item["file"]).read_text(encoding="utf-8")
        assert "last_verification" in text, "memspec rewrote the record"
        assert "\n    fields:\n" in text, "its unknown fields are still under ext.memconv"
    back = tmp_path / "back"
    _write(dialects.get("memspec").read(out), dialect, back)
    returned = {r.link: r for r in dialects.get(dialect).read(back).records}
    for record in source.records:
        if record.extra or record.scope is not None:
            assert record.link in returned
            # (memconv's own key holds what memspec's verify added, which this dialect has no field for)
            kept = {k: v for k, v in returned[record.link].extra.items() if k != carrying.KEY}
            assert kept == record.extra, record.link
            assert returned[record.link].scope == record.scope, record.link


#: Today a record restored home from its carry goes live whatever its state
#: (``converters.forward``: ``live = home or …``), and the home writers of memoir facts and
#: lessons, Claude and memfmt cannot mark a retraction: memspec's supersede is lost on the
#: way back, silently. Not fixed here (converter territory, reworked by the issue-10 native
#: work); strict, so the fix flips it.
RETRACTION_LOST = "a retraction in memspec is lost on the way back (converters.forward keeps home records live)"


@needs_memspec
@pytest.mark.parametrize(("dialect", "name"), [c for c in CASES if not c.marks])
def test_a_record_retracted_in_memspec_does_not_come_back_live(dialect, name, tmp_path):
    source = dialects.get(dialect).read(GOLDEN / dialect / name / "input")
    out = tmp_path / "memspec"
    forward = _write(source, "memspec", out)
    claims = [i for i in memspec_load(out).items if i["state"] == "active" and i["type"]]
    assert claims, "the conversion holds claims to edit"
    retracted = claims[-1]
    done = memspec(out, "supersede", retracted["id"], "--reason", "retracted in a test", "--override-operator")
    assert done.returncode == 0, done.stdout + done.stderr
    origin = next(f.source for f in forward.files if f.target and f.target.endswith(retracted["id"] + ".md"))
    report = _write(dialects.get("memspec").read(out), dialect, tmp_path / "back")
    back = dialects.get(dialect).read(tmp_path / "back")
    entry = next(f for f in report.files if f.target and origin.endswith(f.target)
                 or f.source and f.source.endswith(retracted["id"] + ".md"))
    live = [r for r in back.records if entry.target and entry.target.endswith(f"{r.link}.md")
            and r.lifecycle.state == "active"]
    assert entry.target_kind == "note" or not live, \
        f"{origin}: retracted in memspec, it is kept out of the live set or marked, not shown as live"


@needs_memspec
def test_a_store_memspec_made_keeps_its_empty_folders_through_memconv(tmp_path, runner):
    from memconv.cli import main

    project = tmp_path / "project"
    project.mkdir()
    done = memspec(project, "init", "--no-interactive", "--skip-import", "--skip-patch", "--no-install-hooks")
    assert done.returncode == 0, done.stdout + done.stderr
    done = memspec(project, "remember", "fact", "Team A ships on Tuesdays", "--source", "agent-x",
                   "--body", "Release train leaves Tuesday noon.")
    assert done.returncode == 0, done.stdout + done.stderr
    assert not any((project / ".memspec" / "archive").iterdir()), "memspec init made an empty archive/"

    checked = runner.invoke(main, ["check", "--from", "memspec", str(project)])
    assert checked.exit_code == 0, checked.output  # the keep files memconv would add are no difference

    out = tmp_path / "out"
    migrated = runner.invoke(main, ["migrate", "--from", "memspec", str(project), str(out)])
    assert migrated.exit_code == 0, migrated.output
    [claim] = [i for i in memspec_load(out).items]
    done = memspec(out, "supersede", claim["id"], "--reason", "retracted in a test")
    assert done.returncode == 0, done.stdout + done.stderr
    assert [i["state"] for i in memspec_load(out).items] == ["superseded"]


#: memspec's verify adds last_verified, verified_with and ext.last_verification. A record
#: restored home from its carry is written by its home dialect, which has no word for them, and
#: nothing carries them or reports them dropped (converters.forward: home records report only
#: what they had). Not fixed here (converter territory); strict, so the fix flips it.
VERIFICATION_LOST = "memspec's verification is neither carried nor reported dropped on the way back"


@needs_memspec
@pytest.mark.parametrize(("dialect", "name"), [c for c in CASES if not c.marks])
def test_a_verification_in_memspec_is_kept_or_reported_on_the_way_back(dialect, name, tmp_path):
    source = dialects.get(dialect).read(GOLDEN / dialect / name / "input")
    out = tmp_path / "memspec"
    _write(source, "memspec", out)
    claim = next(i for i in memspec_load(out).items if i["state"] == "active" and i["type"])
    done = memspec(out, "verify", claim["id"], "--evidence", "checked by hand in a test")
    assert done.returncode == 0, done.stdout + done.stderr
    report = _write(dialects.get("memspec").read(out), dialect, tmp_path / "back")
    kept = any(b"checked by hand in a test" in p.read_bytes() for p in (tmp_path / "back").rglob("*") if p.is_file())
    said = any(f.dropped for f in report.files) or any("last_verif" in w for w in report.warnings)
    assert kept or said, "the verification is carried home, or the report says it was dropped"


@needs_memspec
@needs_memoir
def test_a_memoir_store_retracted_in_memspec_comes_home_valid(tmp_path):
    """Every claim retracted by memspec's supersede: memoir's validate accepts what comes home, nothing live."""
    source = dialects.get("memoir").read(GOLDEN / "memoir" / "canonical" / "input")
    out = tmp_path / "memspec"
    forward = _write(source, "memspec", out)
    claims = [i for i in memspec_load(out).items if i["state"] == "active" and i["type"]]
    assert {"decision", "fact"} <= {i["type"] for i in claims}
    retracted = {f.source.removeprefix("memory/").removesuffix(".md") for f in forward.files for c in claims
                 if f.target and f.target.endswith(c["id"] + ".md")}
    # (one more claim is the working set's rendering: the session state comes home as it was, reported)
    for claim in claims:
        done = memspec(out, "supersede", claim["id"], "--reason", "retracted in a test", "--override-operator")
        assert done.returncode == 0, done.stdout + done.stderr
    report = _write(dialects.get("memspec").read(out), "memoir", tmp_path / "back")
    verdict = memoir_validate(tmp_path / "back")
    assert verdict.ok and verdict.errors == [], verdict.output
    live = {r.link for r in dialects.get("memoir").read(tmp_path / "back").records if r.lifecycle.state == "active"}
    assert live and not live & retracted, "nothing memspec retracted reads as live in memoir"
    assert sum(f.target_kind == "note" for f in report.files) == len(retracted)
    assert len(retracted) == len(claims) or any("working set's rendering is superseded" in w for w in report.warnings)
