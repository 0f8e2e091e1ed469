"""Deterministic memspec ids: ``ms_`` + a ULID made from the record, not from the clock.

memspec mints ``ms_<ULID>`` ids from the current time and random bits. A
converter that did the same would give different files for the same input on
every run. Here the 48-bit time part is the record's ``created`` instant (so
ids still sort by creation, as ULIDs promise) and the 80-bit random part is
the first bytes of a SHA-256 of the record's source identity (its link name
in the dialect it came from), so the same input always gives the same id.
"""

from __future__ import annotations

import base64
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
    return "ms_" + encode((ms << 80) | entropy)


#: RFC 4648's base32 alphabet written in Crockford's.
_FROM_RFC4648 = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", _ALPHABET)


def encode(value: int) -> str:
    """The 26 Crockford base32 digits of a 130-bit ``value``, most significant first.

    ``base64.b32encode`` does the grouping in C: the value shifted to fill 17 bytes, its first 26
    digits (the rest is the shift and padding), in Crockford's alphabet.
    """
    return base64.b32encode((value << 6).to_bytes(17, "big")).decode("ascii")[:26].translate(_FROM_RFC4648)


#: ``ID``, the one memspec id pattern, is the ladder's (:mod:`memconv.migrations.memspec.fields`).
__all__ = ["ID", "derive"]
