"""memfmt's ladder: the type key of each file.

memfmt has no version field. What changed over its life is the key that marks
a file as memfmt's: trees exported by Mengram before the format was split out
say ``mengram_type``; memfmt writes ``memfmt_type`` and reads both. So a
file's version here is its *generation*: 0 for ``mengram_type``, 1 for
``memfmt_type``, and the one step renames the key (``mengram_to_memfmt``).
"""

from __future__ import annotations

from .. import Ladder
from . import mengram_to_memfmt

#: The generation of a file marked by ``mengram_type`` and by ``memfmt_type``.
MENGRAM, CURRENT = 0, 1

FILE = Ladder(
    subject="memfmt file",
    versions=(MENGRAM, CURRENT),
    steps={MENGRAM: mengram_to_memfmt.step},
    describe={MENGRAM: mengram_to_memfmt.DESCRIPTION},
)


def file_version(type_key: str) -> int:
    """The generation of a file whose type came from ``type_key``."""
    return MENGRAM if type_key == mengram_to_memfmt.OLD_KEY else CURRENT


__all__ = ["FILE", "MENGRAM", "CURRENT", "file_version", "mengram_to_memfmt"]
