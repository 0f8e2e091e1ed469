"""memconv: convert AI-agent memory stores between dialects without losing a byte.

The public API (docs/api.md)::

    import memconv
    store = memconv.read_store("./in")              # dialect detected
    converted = memconv.convert(store, to="memfmt")  # files and report, in memory
    memconv.write_store(converted, "./out")          # all or nothing

``import memconv`` stays cheap: the API's modules load on first use.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING

__version__ = "0.1.0"

if TYPE_CHECKING:
    from .api import Converted, Detected, check, convert, detect, read_store, write_files, write_store
    from .errors import MemconvError, OutputError, ReadError, StoreError, UsageError, WrongDialect
    from .model import Store
    from .report import Report

#: Public name → the module that defines it (imported on first use).
_LAZY = {
    "read_store": "api", "convert": "api", "write_store": "api", "write_files": "api", "detect": "api",
    "check": "api", "Converted": "api", "Detected": "api",
    "MemconvError": "errors", "ReadError": "errors", "StoreError": "errors", "WrongDialect": "errors",
    "OutputError": "errors", "UsageError": "errors",
    "Store": "model", "Report": "report",
}

__all__ = ["__version__", "merge", *_LAZY]


class _CallableMerge(types.ModuleType):
    """The subpackage ``memconv.merge``, callable as ``memconv.merge(a, b)`` (:func:`memconv.api.merge`).

    ``merge`` is both the public function the API promises and the name of the
    subpackage with the merge rules; Python binds a package attribute to its
    subpackage on import, so the subpackage itself is made callable, and its
    own names (``memconv.merge.SUPPORTED``…) stay where they are.
    """

    def __call__(self, a, b):
        from .api import merge

        return merge(a, b)


class _Package(types.ModuleType):
    def __setattr__(self, name: str, value) -> None:
        if name == "merge" and isinstance(value, types.ModuleType) and type(value) is types.ModuleType:
            value.__class__ = _CallableMerge
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str):
    if name == "merge":
        import importlib

        return importlib.import_module(".merge", __name__)  # the import binds it, callable (see _Package)
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'memconv' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
