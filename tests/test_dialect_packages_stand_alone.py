"""Each dialect package stands alone: it imports no other dialect, and nothing above it.

Read from the source (``ast``), so an import inside a function counts as much
as one at the top. A dialect package is ``memconv/dialects/<d>/`` with its
ladder ``memconv/migrations/<d>/``; what two dialects share lives in a shared
module beside them (``memconv/dialects/entry_frontmatter.py``), never in one of
them. The shared modules of ``dialects/`` and ``migrations/`` import nothing
above them either (no converters, CLI, pipeline, API, merge or upgrade). And no module of memconv,
in any package, imports a private (``_x``) name of another module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import memconv
from memconv.dialects import MODULES

PACKAGE = Path(memconv.__file__).parent
DIALECTS = sorted(MODULES)
#: Layers above the dialects: a dialect (or a module they share) never imports these.
ABOVE = ("memconv.converters", "memconv.cli", "memconv.cli_merge", "memconv.pipeline", "memconv.api",
         "memconv.merge", "memconv.upgrade", "memconv.upgrade_claude", "memconv.report", "memconv.lock")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, source: str) -> list[tuple[int, str, str | None]]:
    """``(line, module, name)`` for every import in ``source`` (of ``path``); ``name`` is None for ``import m``."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source, str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found += [(node.lineno, module, alias.name) for alias in node.names]
    return found


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _problems(path: Path, own: str | None, source: str | None = None) -> list[str]:
    """What ``path`` imports that it must not. ``own`` is its dialect, or None for a shared module."""
    others = [f"memconv.{area}.{d}" for d in DIALECTS if d != own for area in ("dialects", "migrations")]
    here = _module_name(path)
    problems = []
    for line, module, name in _imports(path, path.read_text(encoding="utf-8") if source is None else source):
        # ``from memconv.dialects import memoir`` imports the package ``memconv.dialects.memoir``.
        targets = [module] + ([f"{module}.{name}"] if name not in (None, "*") else [])
        where = f"{path.relative_to(PACKAGE.parent)}:{line}"
        if own is not None:
            for target in targets:
                bad = next((o for o in others if _within(target, o)), None)
                if bad is not None:
                    problems.append(f"{where}: imports {target} (the dialect {bad.rsplit('.', 1)[-1]!r})")
                    break
        for target in targets:
            if any(_within(target, above) for above in ABOVE):
                problems.append(f"{where}: imports {target}, a layer above the dialects")
                break
        if name is not None and name.startswith("_") and not name.startswith("__") and module != here:
            problems.append(f"{where}: imports {name}, a private name of {module}")
    return problems


def _dialect_modules() -> list[tuple[str, Path]]:
    return [(d, path) for d in DIALECTS for area in ("dialects", "migrations")
            for path in sorted((PACKAGE / area / d).rglob("*.py"))]


def _shared_modules() -> list[Path]:
    return [path for area in ("dialects", "migrations") for path in sorted((PACKAGE / area).glob("*.py"))]


def _folders(area: str) -> set[str]:
    return {p.name for p in (PACKAGE / area).iterdir() if p.is_dir() and p.name != "__pycache__"}


def test_every_package_of_the_dialects_is_a_registered_dialect():
    # So that the checks below cover every dialect package (claude has no ladder: one format, no versions).
    assert _folders("dialects") == set(DIALECTS)
    assert _folders("migrations") <= set(DIALECTS)


@pytest.mark.parametrize("dialect,path", _dialect_modules(),
                         ids=lambda v: str(v.relative_to(PACKAGE)) if isinstance(v, Path) else v)
def test_a_dialect_module_imports_no_other_dialect_and_nothing_above(dialect, path):
    assert _problems(path, dialect) == []


@pytest.mark.parametrize("path", _shared_modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_shared_module_of_the_dialects_imports_nothing_above_them(path):
    assert _problems(path, None) == []


@pytest.mark.parametrize("line,why", [
    ("from ..memoir import entries as memoir_entries", "the dialect 'memoir'"),
    ("from ...migrations.memspec import fields", "the dialect 'memspec'"),
    ("from memconv.dialects import memfmt", "the dialect 'memfmt'"),
    ("import memconv.dialects.memoir.entries", "the dialect 'memoir'"),
    ("def f():\n    from ...converters.mapping import name_part", "a layer above the dialects"),
    ("from ...upgrade_claude import upgrade", "a layer above the dialects"),
    ("from ...cli import main", "a layer above the dialects"),
    ("from .index import _place", "a private name of memconv.dialects.claude.index"),
])
def test_the_boundary_check_sees_each_kind_of_crossing(line, why):
    # The check itself must be able to fail: a claude module that crosses the line, once per way.
    fake = PACKAGE / "dialects" / "claude" / "crossing.py"
    problems = _problems(fake, "claude", line + "\n")
    assert len(problems) == 1 and why in problems[0], problems
    assert "memconv/dialects/claude/crossing.py:" in problems[0]


def _every_module() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def _private_imports(path: Path, source: str | None = None) -> list[str]:
    """The private names (``_x``) of another module of memconv that ``path`` imports, or reaches
    through a module or class it imported from memconv (``pipeline._diff``, ``cli._finish``): the one
    rule of :func:`_problems` that holds for every module of memconv, not only for the dialects'."""
    source = path.read_text(encoding="utf-8") if source is None else source
    found = [p for p in _problems(path, None, source) if "a private name of" in p]
    bound: dict[str, str] = {}  # a name an import binds → what it names in memconv
    tree = ast.parse(source, str(path))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            # The module each alias comes from, as _imports resolves it (relative imports included).
            one = ast.unparse(ast.Module(body=[node], type_ignores=[]))
            for alias, (_, module, name) in zip(node.names, _imports(path, one)):
                if _within(module, "memconv") and name != "*":
                    whole = module if name is None else f"{module}.{name}"
                    bound[alias.asname or (alias.name if name is not None else alias.name.split(".")[0])] = whole
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound \
                and node.attr.startswith("_") and not node.attr.startswith("__"):
            found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: reaches {node.value.id}.{node.attr}, "
                         f"a private name of {bound[node.value.id]}")
    return found


@pytest.mark.parametrize("path", _every_module(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_of_memconv_imports_a_private_name_of_another(path):
    assert _private_imports(path) == []


def test_the_private_name_check_sees_one_in_any_module():
    # As memconv/preview.py imported ``pipeline._diff``: seen failing on that import before it was renamed.
    fake = PACKAGE / "preview.py"
    found = _private_imports(fake, "def f():\n    from .pipeline import _diff\n")
    assert len(found) == 1 and "imports _diff, a private name of memconv.pipeline" in found[0], found
    assert _private_imports(fake, "from .pipeline import file_diff, __version__\n") == []


@pytest.mark.parametrize("line", ["from . import pipeline\npipeline._diff(1, 2, 3)\n",
                                  "from . import cli\ndef f():\n    return cli._verbose.get()\n",
                                  "import memconv.fs as fs\nfs._rmtree('x')\n"])
def test_the_private_name_check_sees_one_reached_through_a_module(line):
    # As cli_merge.py called pipeline._diff and cli._finish, and upgrade.py fs._rmtree: seen failing on each.
    found = _private_imports(PACKAGE / "cli_merge.py", line)
    assert len(found) == 1 and "a private name of memconv." in found[0], found
    assert _private_imports(PACKAGE / "jobs.py", "import os\nos._exit(0)\n") == []  # not memconv's


def test_a_dialect_may_import_its_own_ladder_and_the_shared_modules():
    fake = PACKAGE / "dialects" / "claude" / "fine.py"
    allowed = ("from .. import entry_frontmatter as efm\nfrom .. import Detection, fold\n"
               "from ...migrations.claude import anything\nfrom ...model import Record\nfrom . import body\n"
               "from ...migrations import VersionProblem\n")
    assert _problems(fake, "claude", allowed) == []


# --- one rule in one place: memspec's id pattern and key order ------------------------

def test_memspec_has_one_id_pattern_and_one_key_order():
    from memconv.dialects.memspec import RECORD_FILE, records, ulid
    from memconv.migrations import memspec as ladder
    from memconv.migrations.memspec import fields

    assert ladder.ID is fields.ID and ulid.ID is fields.ID and records.ID is fields.ID
    assert RECORD_FILE.pattern == rf"^{fields.ID_TEXT}\.md$"
    assert records.ORDER is fields.ORDER


def test_keys_the_ladder_adds_land_in_the_writers_order():
    # A pre-0.3 record with the newer ``scope`` beside ``tags``: the ladder moves ``confidence`` into a new
    # ``ext``, which memspec's writer order puts after ``scope``. (The ladder's own, shorter order, without
    # scope and probes, put ``ext`` before ``scope``: seen failing before the two orders were made one.)
    from memconv.migrations.memspec import Draft, climb
    from memconv.migrations.memspec.fields import ORDER

    ident = "ms_01KN9E9020H7RQQBNT58TJ7XAD"
    values = {"id": ident, "type": "fact", "state": "captured", "created": "2026-04-04T10:30:00Z",
              "source": "claude-code", "tags": [], "scope": "repo", "confidence": 0.5}
    draft, start, _ = climb(Draft(values, f"memory/facts/{ident}.md"))
    assert start == "v0.2" and draft.values["ext"] == {"legacy_confidence": 0.5}
    keys = list(draft.values)
    assert keys.index("scope") < keys.index("ext"), keys
    written = [k for k in keys if k in ORDER]
    assert written == sorted(written, key=ORDER.index), written


def _steps() -> set[str]:
    """Module names of ladder steps: the modules of ``migrations/<d>/`` that define ``step``."""
    found = set()
    for path in sorted((PACKAGE / "migrations").glob("*/*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(n, ast.FunctionDef) and n.name == "step" for n in tree.body):
            found.add(_module_name(path))
    return found


def _step_imports(path: Path, steps: set[str], source: str | None = None) -> list[str]:
    """The ladder steps ``path`` imports, other than itself."""
    here = _module_name(path)
    found = []
    for _, module, name in _imports(path, path.read_text(encoding="utf-8") if source is None else source):
        for target in [module] + ([f"{module}.{name}"] if name not in (None, "*") else []):
            if target in steps and target != here:
                found.append(target)
    return found


def test_no_ladder_step_imports_another():
    # What steps share sits in a module of their ladder (memspec: fields.py), not in one of them.
    steps = _steps()
    assert "memconv.migrations.memspec.v02_to_v04" in steps and "memconv.migrations.memspec.v04_to_current" in steps
    crossing = {str(path.relative_to(PACKAGE)): _step_imports(path, steps)
                for path in sorted((PACKAGE / "migrations").glob("*/*.py")) if _module_name(path) in steps}
    assert {k: v for k, v in crossing.items() if v} == {}
    # … and the check sees a step importing another (as v04_to_current imported v02_to_v04's helpers).
    fake = PACKAGE / "migrations" / "memspec" / "v04_to_current.py"
    assert _step_imports(fake, steps, "from .v02_to_v04 import infer_source_kind\n") == [
        "memconv.migrations.memspec.v02_to_v04"]
