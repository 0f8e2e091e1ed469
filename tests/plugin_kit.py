"""Install a dialect plugin for a test the way an installer would, without pip or a network.

An installed distribution is a package on ``sys.path`` beside a
``<name>-<version>.dist-info/`` folder holding ``METADATA`` and
``entry_points.txt``: ``importlib.metadata`` finds its entry points there.
:func:`install` writes exactly that into a folder, and :func:`environ` gives
the ``PYTHONPATH`` a CLI subprocess needs to see it too.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

PLUGINS = Path(__file__).parent / "plugins"


def install(folder: Path, package: str = "memconv_jsonl", version: str = "0.1",
            entry_points: dict[str, str] | None = None) -> Path:
    """Copy ``tests/plugins/<package>/<package>`` into ``folder`` and write its dist-info; returns ``folder``."""
    shutil.copytree(PLUGINS / package / package, folder / package)
    info = folder / f"{package}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: {version}\n")
    points = entry_points if entry_points is not None else {"jsonl": package}
    (info / "entry_points.txt").write_text(
        "[memconv.dialects]\n" + "".join(f"{name} = {value}\n" for name, value in points.items()))
    return folder


def install_source(folder: Path, package: str, source: str, entry_points: dict[str, str],
                   version: str = "0.1") -> Path:
    """Install a one-module distribution ``package`` whose module is ``source`` (a plugin written in a test)."""
    (folder / package).mkdir(parents=True)
    (folder / package / "__init__.py").write_text(source)
    info = folder / f"{package}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(
        "[memconv.dialects]\n" + "".join(f"{name} = {value}\n" for name, value in entry_points.items()))
    return folder


def environ(folder: Path) -> dict[str, str]:
    """The environment of a subprocess that sees the plugins installed in ``folder``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(folder), *filter(None, [env.get("PYTHONPATH")])])
    return env


def activate(monkeypatch, folder: Path) -> None:
    """Put ``folder`` on ``sys.path`` for this test and make memconv read the entry points again."""
    from memconv import dialects

    monkeypatch.syspath_prepend(str(folder))
    dialects.clear_registry()
    monkeypatch.setattr(dialects, "_registry", None)  # and forgotten again when the test ends


def warnings_with(monkeypatch, folder: Path, forget: str, look):
    """``look()`` with the plugins of ``folder`` active (:func:`activate`) and ``memconv.dialects``'s set ``forget``
    (what it has said once already: ``_warned``, ``_detect_failed``) emptied: what it returned, and the message of
    every warning it gave."""
    import warnings

    from memconv import dialects

    activate(monkeypatch, folder)
    monkeypatch.setattr(dialects, forget, set())
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        result = look()
    return result, [str(w.message) for w in seen]
