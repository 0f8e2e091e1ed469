"""A conversion into Claude keeps each memory's ``MEMORY.md`` line from its file to the last one's, when the index
pages are made (``index.entry_line``). Held as a string, the dash before its hook (``—``, U+2014) made every character
of it two bytes: 388 bytes a line at 30,000 memories, the end of the write the peak of ``memspec → claude``
(docs/performance.md, "(thirty-ninth)", "(forty-third)"). It is held as the UTF-8 bytes it is written as, and the
pages are the same bytes."""

from __future__ import annotations

import sys

from memconv.dialects.claude import index
from memconv.model import Record


def _record(n: int) -> Record:
    return Record(kind="fact", link=f"deploy-{n}", title=f"Deploys go out on Tuesdays ({n})",
                  description="The team ships on Tuesdays after the canary has run for a day; never on Fridays")


def test_an_entry_line_holds_no_more_than_its_written_bytes():
    # Watched fail with the line held as a string: 294 bytes held for 110 written.
    for n in (1, 2000):
        path, group, line = index.entry_line(f"project_deploy-{n}.md", _record(n), "project")
        written = index.link_line(index.generated_link(path, _record(n))).encode("utf-8")
        assert line == written
        assert sys.getsizeof(line) <= len(written) + 40, (sys.getsizeof(line), len(written))


def test_the_pages_are_the_lines_written_one_per_line():
    entries = [(f"project_deploy-{n:04}.md", _record(n), "project") for n in range(400)]
    pages, warnings = index.generate(entries)
    assert len(pages) > 1 and warnings, "past Claude Code's limits: paginated"
    text = b"".join(pages[path] for path in pages).decode("utf-8")
    for path, record, _ in entries:
        assert index.link_line(index.generated_link(path, record)) + "\n" in text
    for path in pages:
        assert index.past_limits(pages[path]) is None, path
