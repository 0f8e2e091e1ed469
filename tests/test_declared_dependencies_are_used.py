"""Every declared dependency is used where it serves, and docs/dependencies.md says where (issue 13)."""

from __future__ import annotations

import re
import tomllib

from .conftest import ROOT

#: Declared, and on purpose imported nowhere yet: docs/dependencies.md says why. Nothing else may be.
#: (Empty since the golden harness moved to syrupy; kept so that an exception is named, not implied.)
NOT_YET_USED: set[str] = set()
#: Where each group of dependencies must be imported.
AREAS = {"dependencies": "memconv", "test": "tests", "bench": "benchmarks"}
SECTIONS = {"dependencies": "## Runtime", "test": "## Tests", "bench": "## Benchmarks"}


def _name(requirement: str) -> str:
    return re.match(r"[A-Za-z0-9_.\-]+", requirement).group(0).lower()


def _declared() -> dict[str, list[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    groups = {"dependencies": [_name(r) for r in project["dependencies"]]}
    for extra, requirements in project.get("optional-dependencies", {}).items():
        groups[extra] = [_name(r) for r in requirements]
    return groups


def _documented() -> dict[str, dict[str, str]]:
    """docs/dependencies.md's tables: section → distribution → the name it is imported as."""
    text = (ROOT / "docs" / "dependencies.md").read_text()
    out: dict[str, dict[str, str]] = {}
    for group, heading in SECTIONS.items():
        body = text.split(heading, 1)[1].split("\n## ", 1)[0]
        rows = re.findall(r"^\| `([^`]+)` \| `([^`]+)` \|", body, re.M)
        out[group] = {dist.lower(): module for dist, module in rows}
    return out


def _imports(area: str, module: str) -> list[str]:
    pattern = re.compile(rf"^\s*(?:import|from)\s+{re.escape(module)}\b|import [\w, ]*\b{re.escape(module)}\b", re.M)
    return [str(p.relative_to(ROOT)) for p in sorted((ROOT / area).rglob("*.py")) if pattern.search(p.read_text())]


def test_every_declared_dependency_is_documented_and_nothing_else():
    declared, documented = _declared(), _documented()
    assert set(declared) == set(AREAS), "a new extra needs its area and its section in docs/dependencies.md"
    for group, names in declared.items():
        assert sorted(names) == sorted(documented[group]), f"{group}: pyproject.toml and docs/dependencies.md differ"


def test_every_declared_dependency_is_imported_where_it_serves():
    # Verified by declaring ruamel.yaml again (and listing it): fails with "ruamel.yaml is imported nowhere".
    for group, names in _documented().items():
        for dist, module in names.items():
            used = _imports(AREAS[group], module)
            if dist in NOT_YET_USED:
                assert not used, f"{dist} is used now ({used}): take it out of NOT_YET_USED and fix its row"
                continue
            assert used, f"{dist} is imported nowhere in {AREAS[group]}/: use it or drop it (docs/dependencies.md)"


def test_the_one_unused_dependency_says_why():
    text = (ROOT / "docs" / "dependencies.md").read_text()
    for dist in NOT_YET_USED:
        assert re.search(rf"\*\*{re.escape(dist)}: kept, for the next step\.\*\*", text), dist
