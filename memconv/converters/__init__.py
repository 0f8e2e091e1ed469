"""Converters between dialects: model in, model out, knowing no files.

Each converter turns a store read from one dialect into the store another
dialect's writer should write: native fields where the target has a home for
them, carried fields in the target's extension mechanism otherwise.
"""

from __future__ import annotations

from ..errors import StoreError
from ..model import Store


def convert(store: Store, target: str) -> Store:
    raise StoreError(f"conversion from {store.dialect} to {target} is not implemented yet",
                     hint="this version converts within a dialect (read, migrate, write back)")
