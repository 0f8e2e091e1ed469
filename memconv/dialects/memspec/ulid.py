"""Deterministic memspec ids: ``ms_`` + a ULID made from the record, not from the clock.

memspec mints ``ms_<ULID>`` ids from the current time and random bits. A
converter that did the same would give different files for the same input on
every run. Here the 48-bit time part is the record's ``created`` instant (so
ids still sort by creation, as ULIDs promise) and the 80-bit random part is
the first bytes of a SHA-256 of the record's source identity (its link name
in the dialect it came from), so the same input always gives the same id.
"""

from __future__ import annotations

import hashlib

from ...migrations.memspec.dates import instant_ms
from ...migrations.memspec.fields import ID

#: Crockford base32, the ULID alphabet.
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"



def derive(created: str | None, identity: str) -> str:
    """``ms_`` + a ULID whose time is ``created`` and whose rest hashes ``identity``."""
    ms = instant_ms(created) or 0
    ms = max(0, min(ms, 2**48 - 1))
    entropy = int.from_bytes(hashlib.sha256(identity.encode("utf-8")).digest()[:10], "big")
    value = (ms << 80) | entropy
    chars = []
    for _ in range(26):
        chars.append(_ALPHABET[value & 31])
        value >>= 5
    return "ms_" + "".join(reversed(chars))


#: ``ID``, the one memspec id pattern, is the ladder's (:mod:`memconv.migrations.memspec.fields`).
__all__ = ["ID", "derive"]
