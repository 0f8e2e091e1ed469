"""memspec's required ``created`` comes from the source, never from 1970 or the clock (docs/memspec.md, "Dates")."""

from __future__ import annotations

from memconv.dialects import memspec
from memconv.dialects.memspec.records import UNDATED, read_record
from memconv.model import Record, Store


def _written(*records: Record) -> tuple[dict[str, Record], Store]:
    store = Store(dialect="memoir", records=list(records))
    files = memspec.write(store)
    read = {}
    for path, data in files.items():
        if path.endswith(".md"):
            record, _ = read_record(data, path, ".memspec/")
            read[record.title] = record
    return read, store


def test_an_episode_is_created_when_it_happened_and_expires_a_week_later():
    read, _ = _written(Record(kind="observation", link="cold-cache", title="Cold cache", happened="2026-03-04"))
    assert read["Cold cache"].created == "2026-03-04"
    assert read["Cold cache"].expires == "2026-03-11T00:00:00.000Z"


def test_a_record_takes_the_first_of_its_own_dates():
    read, store = _written(
        Record(kind="fact", link="a", title="Added", added="2026-02-02T09:00:00Z", updated="2026-05-05"),
        Record(kind="fact", link="b", title="Decided", date="2026-01-15"),
        Record(kind="fact", link="c", title="Updated", updated="2026-06-01"),
        Record(kind="fact", link="d", title="Created", created="2025-12-24", happened="2026-01-01"))
    assert read["Added"].created == "2026-02-02T09:00:00Z"
    assert read["Decided"].created == "2026-01-15"
    assert read["Updated"].created == "2026-06-01"
    assert read["Created"].created == "2025-12-24"
    assert store.warnings == [], "every record had a date of its own: nothing to report"


def test_a_record_without_a_date_gets_the_newest_date_in_the_store_and_the_report_names_it():
    read, store = _written(Record(kind="fact", link="old", title="Old", created="2024-01-01"),
                           Record(kind="fact", link="new", title="New", updated="2026-07-31T23:00:00Z"),
                           Record(kind="fact", link="undated", title="Undated", happened="last Tuesday"))
    assert read["Undated"].created == "2026-07-31"
    assert read["Undated"].check_by.startswith("2026-10-29"), "the review window counts from that date"
    [warning] = store.warnings
    assert "the newest date in the store" in warning and "2026-07-31" in warning
    assert read["Undated"].link in warning, "the report says which records got it"


def test_a_store_with_no_date_at_all_gets_a_placeholder_never_1970_and_says_so():
    read, store = _written(Record(kind="observation", link="x", title="No date"))
    assert read["No date"].created == UNDATED and not UNDATED.startswith("1970")
    assert not read["No date"].expires.startswith("1970")
    assert any("placeholder" in w for w in store.warnings)


def test_the_same_store_gives_the_same_dates_whatever_else_is_written_alongside():
    # memconv's read-back writes the records without the store's meta: the date must not depend on it.
    records = [Record(kind="fact", link="a", title="A", created="2026-04-04"), Record(kind="fact", link="b", title="B")]
    with_meta = Store(dialect="memoir", records=records, meta={"date": "2030-01-01"})
    assert memspec.write(with_meta) == memspec.write(Store(dialect="memoir", records=records))
