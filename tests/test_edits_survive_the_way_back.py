"""A field edited natively in the target wins on the way back; its carried copy is dropped and reported."""

from __future__ import annotations

import pytest

from memconv import dialects

from .conftest import GOLDEN
from .convert_helpers import DIALECTS, convert_files, read_files

SRC = GOLDEN / "memoir" / "canonical" / "input"
LINK = "fact_staging-endpoints"
OLD = "Staging API endpoints"
NEW = "Staging endpoints, renamed by hand"


@pytest.mark.parametrize("via", [d for d in DIALECTS if d != "memoir"])
def test_a_native_edit_of_the_title_wins_on_the_way_back(via):
    store = dialects.get("memoir").read(SRC)
    files, _ = convert_files(store, via)
    edited, hits = {}, 0
    for path, data in files.items():
        titled = (f"\n# {OLD}\n".encode() in data or f"\nname: {OLD}\n".encode() in data)
        if path.endswith(".md") and "memconv/" not in path and "MEMORY" not in path and titled:
            # Edit the record's own title in its file, not its file name: what a person does in an editor.
            data = data.replace(f"# {OLD}\n".encode(), f"# {NEW}\n".encode())
            data = data.replace(f"name: {OLD}\n".encode(), f"name: {NEW}\n".encode())
            hits += 1
        edited[path] = data
    assert hits == 1, f"the title is written natively, once, in {via}"
    back_files, report = convert_files(read_files(edited, via), "memoir")
    text = back_files[f"memory/{LINK}.md"].decode()
    assert f"name: {NEW}\n" in text, "the edit made in the target reaches the way back, under the same link"
    assert OLD not in text, "no carried copy of the old title survives"


@pytest.mark.parametrize("via", [d for d in DIALECTS if d != "memoir"])
def test_unedited_records_carry_no_warning(via):
    store = dialects.get("memoir").read(SRC)
    files, _ = convert_files(store, via)
    _, report = convert_files(read_files(files, via), "memoir")
    assert not [w for w in report.warnings if "edited in" in w], "nothing was edited, nothing is reported as edited"


def test_a_fact_edited_in_memfmt_wins_and_the_report_names_the_dropped_carry():
    """The issue's own scenario: convert to memfmt, edit a fact, convert back."""
    from memconv.model import Record, Store

    from .convert_helpers import convert_files as convert

    body = "Staging runs at staging.example.com.\n\n- bearer tokens\n- 60 req/min\n"
    store = read_files(dialects.get("memoir").write(Store(dialect="code", records=[
        Record(kind="fact", link="fact_staging", title="Staging", description="Where staging is", body=body)])),
        "memoir")
    files, _ = convert(store, "memfmt")
    (path,) = [p for p in files if p.startswith("memory/entities/")]
    assert b"- Staging runs at staging.example.com.\n" in files[path], "the body's words are facts in memfmt"
    assert b'\\"body\\"' in files[path], "the list does not fit one-line facts, so the exact body is carried"
    files[path] = files[path].replace(b"staging.example.com", b"staging.example.org")
    back, report = convert(read_files(files, "memfmt"), "memoir")
    text = back["memory/fact_staging.md"].decode()
    # Verified by dropping the digest check in carry.apply(): the carried body overwrites the edit.
    assert "staging.example.org" in text and "staging.example.com" not in text, "the edit wins"
    assert any("edited in memfmt: body" in w for w in report.warnings), "the report names the dropped carry"


@pytest.mark.parametrize("via", [d for d in DIALECTS if d != "memoir"])
def test_an_edited_working_set_rendering_is_reported_not_silently_ignored(via):
    store = dialects.get("memoir").read(SRC)
    files, _ = convert_files(store, via)
    (shown,) = [p for p, data in files.items() if not p.startswith((".memconv/", ".memspec/.memconv/"))
                and b"Do we support Windows paths" in data]
    files[shown] = files[shown].replace(b"Do we support Windows paths", b"Do we support macOS paths")
    back, report = convert_files(read_files(files, via), "memoir")
    assert back["session.json"] == (SRC / "session.json").read_bytes(), "the carried working set comes back whole"
    assert sorted(p for p in back if p.startswith("memory/")) == sorted(
        p.relative_to(SRC).as_posix() for p in (SRC / "memory").iterdir()), "the rendering is not a record at home"
    assert any("working set's rendering was edited" in w for w in report.warnings), \
        "and the user is told the edit was not applied"
