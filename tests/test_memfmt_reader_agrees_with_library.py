"""Our memfmt reader means what ``memfmt.load`` means, on every file memfmt writes.

hypothesis builds memories with text that leans on the grammar (dashes, arrows,
brackets, ``✓``, quotes, colons, headings inside text), the real library
serialises them to disk, and both readers read the folder back. The library's
model and ours (mapped as docs/memfmt.md says) must be equal field by field —
including where memfmt itself reads back something other than it wrote.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import memfmt
from hypothesis import HealthCheck, assume, given, settings

from memconv import fs
from memconv.dialects import memfmt as dialect

from .memfmt_oracle import memories, to_library


def _read_both(tree: dict[str, str]):
    """(memfmt.load, memconv's reader) of ``tree`` written by memfmt; None when memfmt cannot write it."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        try:
            memfmt.write_dir(tree, root)
        except (memfmt.MemfmtError, ValueError, OSError):
            return None  # memfmt put `happened` into a path it then refuses (`../..`, NUL): nothing to read.
        return memfmt.load(root), dialect.read(root)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(memories(safe_filename=False))
def test_reader_gives_the_model_memfmt_load_gives(memory):
    # Verified by making read_episode keep the "**Outcome** — …" line in the context:
    # fails with context='**Outcome** —' on memconv's side.
    tree = memfmt.serialise(memory, generated="2026-08-02")
    # memconv refuses by name (never reads) a file whose name holds a control character or `\`
    # (the one path guard, docs/cli.md); memfmt writes such names from `happened`.
    assume(all(fs.path_problem(path) is None for path in tree))
    both = _read_both(tree)
    assume(both is not None)
    theirs, ours = both
    assert not ours.quarantined, "nothing memfmt writes itself is quarantined"
    assert memfmt.canonical(to_library(ours)) == memfmt.canonical(theirs), \
        "memconv reads a memfmt file as memfmt.load does"


def test_reader_agrees_on_hand_written_oddities():
    """Files memfmt did not write: notes in odd places, sections repeated, records in both orders."""
    tree = {
        "memory/entities/Ali.md": "---\nmemfmt_type: entity\nentity_type: person\nx: \"a \\\"b\\\"\"\n---\n\n"
                                  "# Ali\n\nstray text\n\n## Facts\n\n- one\n-  two  \n- \n\n## Relations\n\n"
                                  "- knows → [[Bo|Bo/Ba]] — met 2020\n- bad line\n- owes ← [[Cy]]\n\n"
                                  "## Facts\n\n- three\n\n## Knowledge\n\n**[] t** — c\n\n```\nx\n  y\n```\n"
                                  "**[k] only title**\n",
        "memory/procedures/p.md": "---\nmemfmt_type: procedure\nversion: 2\n---\n\n# p (v9 · 1% reliable)\n\n"
                                  "**Preconditions**\n- a\n**When** — w\n- b\ntext\n- c\n\n## Steps\n\n"
                                  "1. a — b — c [x, y → z] (1✓/2✗)\n2. [→]\n10. tail (3✓/0✗) [a → b]\n\n"
                                  "## Evolution\n\n- v1 → v2 (4✓/2✗, 2026-01-01): r\n- v2 → v3: s\n- v3 → v4 (): t\n",
        "memory/episodes/e.md": "---\nmengram_type: episode\nimportance: 3\nparticipants:\n  - A\n  - \"B\"\n---\n\n"
                                "pre\n# E\n\nline 1\n\n**Outcome** — x\nline 2\n# again\n## tail\nlost\n",
        "memory/profile.md": "---\nmemfmt_type: profile\n---\n\nintro\n# Profile\n\n  text  \n",
    }
    theirs, ours = _read_both(tree)
    assert not ours.quarantined
    assert memfmt.canonical(to_library(ours)) == memfmt.canonical(theirs)
