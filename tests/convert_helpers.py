"""Converting stores in tests: in memory, through a real folder, as the CLI does."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from memconv import dialects, pipeline
from memconv.model import Store, meaning
from memconv.report import Report

from .conftest import GOLDEN

#: Every dialect this install has.
DIALECTS = dialects.available()


def golden_inputs() -> list[tuple[str, str]]:
    """(dialect, store name) for every golden store whose dialect is installed."""
    found = []
    for dialect in DIALECTS:
        base = GOLDEN / dialect
        if base.is_dir():
            found += [(dialect, p.name) for p in sorted(base.iterdir()) if (p / "input").is_dir()]
    return found


#: Golden stores in their dialect's canonical form: A→B→A must give them back byte for byte.
CANONICAL = [(d, n) for d, n in golden_inputs() if n == "canonical"]


def convert_files(store: Store, target: str, *, lossy: bool = False,
                  release: bool = False) -> tuple[dict[str, bytes], Report]:
    """What ``memconv convert`` writes from ``store``; ``release``: hand the store over, as the CLI does."""
    report = Report(command="convert", input="<memory>")
    plan = pipeline.plan(store, target, report, lossy=lossy, release=release)
    # What memconv writes about the run (quarantined originals, the manifest), not the store itself.
    return {p: b for p, b in plan.files.items()
            if not dialects.in_quarantine(p) and not p.startswith(".memconv/manifest")}, report


def convert_dir(source: Path, target: str, out: Path) -> Path:
    """``memconv convert --to target source out`` on the command line, which must succeed; returns ``out``."""
    from click.testing import CliRunner

    from memconv.cli import main

    result = CliRunner().invoke(main, ["convert", "--to", target, str(source), str(out)])
    assert result.exit_code == 0, result.output
    return out


def convert_quietly(runner, source: str, target: str, a: Path, b: Path) -> None:
    """``memconv SOURCE-to-TARGET -q A B`` through ``runner``, which must succeed."""
    from memconv.cli import main

    result = runner.invoke(main, [f"{source}-to-{target}", "-q", str(a), str(b)])
    assert result.exit_code == 0, result.output


def canonical_memoir_with_session(tmp_path: Path, edit) -> Path:
    """IN (``tmp_path/in``): the canonical golden memoir store, its ``session.json`` document changed by
    ``edit(document)`` and written back (two-space indent, non-ASCII as it is)."""
    src = tmp_path / "in"
    shutil.copytree(GOLDEN / "memoir" / "canonical" / "input", src)
    document = json.loads((src / "session.json").read_text())
    edit(document)
    (src / "session.json").write_text(json.dumps(document, indent=2, ensure_ascii=False))
    return src

def planned(root: Path, source: str, target: str, read_options: dict, *, lazy: bool = True,
            jobs: int = 1) -> tuple[dict[str, bytes], dict]:
    """The files and the report (as a dict) of converting the store at ``root`` as the command line does: read with
    ``read_options`` (``pipeline.read``'s ``each``, ``each_index`` and ``hold``, as ``cli._for_conversion`` gives
    them), its records handed over, and run ``lazy`` (as without ``--fail-on-loss``) or whole."""
    store = pipeline.read(root, source, **read_options)
    plan = pipeline.plan(store, target, Report(command="convert", input=str(root)), jobs=jobs, release=True,
                         lazy=lazy)
    return dict(plan.iter_files()), plan.report.to_dict()


def write_files(files: dict[str, bytes], root: Path) -> None:
    """``files`` (relative path → bytes) written under ``root``, folders made as needed."""
    for path, data in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(data)


def read_files(files: dict[str, bytes], dialect: str) -> Store:
    with tempfile.TemporaryDirectory() as tmp:
        write_files(files, Path(tmp))
        return dialects.get(dialect).read(Path(tmp))


def hop(store: Store, target: str) -> tuple[Store, dict[str, bytes]]:
    files, _ = convert_files(store, target)
    return read_files(files, target), files


def model(store: Store) -> dict:
    """A store's meaning, for comparison: records by link, and the working set."""
    return {
        "records": {r.link: meaning(r) for r in store.records},
        "working_set": store.working_set.document if store.working_set is not None else None,
    }


def plan_written(store: Store, target: str, folder: Path) -> Report:
    """``store`` converted to ``target`` as ``pipeline.plan`` does, its files written in ``folder``; the report."""
    report = Report(command="convert", input=str(folder))
    write_files(pipeline.plan(store, target, report).files, folder)
    return report


def index_edited_in_claude(runner, source: Path, home: str, tmp_path: Path, edit) -> Path:
    """The ``home`` store ``source`` converted to Claude (``tmp_path/away``), its MEMORY.md's text passed through
    ``edit``, and converted home (``tmp_path/back``, returned): both on the command line, which must succeed."""
    from memconv.cli import main

    shutil.copytree(source, tmp_path / "in")
    result = runner.invoke(main, [f"{home}-to-claude", str(tmp_path / "in"), str(tmp_path / "away")])
    assert result.exit_code == 0, result.output
    index = tmp_path / "away" / "MEMORY.md"
    index.write_text(edit(index.read_text()))
    result = runner.invoke(main, [f"claude-to-{home}", str(tmp_path / "away"), str(tmp_path / "back")])
    assert result.exit_code == 0, result.output
    return tmp_path / "back"


def claim_superseded_in_memspec(folder: Path, holding: str, *args: str) -> tuple[str, str]:
    """The golden memoir canonical store converted to memspec in ``folder``, then memspec's own ``supersede`` run
    (with ``args``) on the one claim whose file holds ``holding``: its id, and what memspec printed (it must
    succeed)."""
    from .reference_tools import memspec

    plan_written(dialects.get("memoir").read(GOLDEN / "memoir" / "canonical" / "input"), "memspec", folder)
    ids = [p.stem for p in (folder / ".memspec" / "memory").rglob("ms_*.md")
           if holding in p.read_text(encoding="utf-8")]
    assert len(ids) == 1, ids
    done = memspec(folder, "supersede", ids[0], *args)
    assert done.returncode == 0, done.stdout + done.stderr
    return ids[0], done.stdout


def assert_list_landed(text: str, intro: str, items: list[str], dialect: str, how: str) -> None:
    """A lesson's file home in ``dialect`` (``text``) whose ``**How to apply:**`` list was edited in memfmt: its body
    ``intro`` and the list of ``items``, one a numbered line, no key beside it in Claude (which Claude Code would read
    first), and memoir's own ``how_to_apply`` (``how``) as it was."""
    head, _, body = text.rpartition("---\n")
    assert body.lstrip("\n") == f"{intro}\n\n**How to apply:**\n" \
        + "".join(f"{k}. {item}\n" for k, item in enumerate(items, 1)), "the list edited on its lines"
    if dialect == "claude":
        assert "how_to_apply" not in head, "no key beside the list"
    else:
        assert f"how_to_apply: {how}\n" in head, "the lesson's own how_to_apply as it was"


def assert_home_byte_for_byte(path: str, source: bytes, owner: str, via: str) -> None:
    """The file ``path`` of an ``owner`` store, holding ``source``, to ``via`` and home unedited: the same bytes, and
    nothing said dropped on the way."""
    files, _ = convert_files(read_files({path: source}, owner), via)
    back, report = convert_files(read_files(files, via), owner)
    assert back[path] == source
    assert not [f for f in report.files if f.dropped]


def changed_home(back: Path, before: Path) -> dict[str, str]:
    """The files of ``before`` that came home (at ``back``) with other bytes, memconv's own folder aside: their text."""
    from .conftest import tree

    home, was = tree(back), tree(before)
    return {p: home[p].decode() for p in home if p in was and home[p] != was[p] and ".memconv/" not in p}
