"""Importing the same store twice changes nothing the second time (issue 11, §5.4), for every target.

Each example draws a source dialect, and makes IN and EXISTING as replicas of golden stores (each record
kept, dropped or edited at random, as the merge properties do); EXISTING may first have had another
replica of the source imported into it, so it holds records memconv converted earlier (carries, notes,
an import record). Then every record EXISTING had is still in ``into(E, I)`` (or the report says it is
the same record as an imported one, by its carry), and ``into(into(E, I), I)`` is byte-identical to
``into(E, I)``: the second import writes nothing, makes no backup and reports no new conflict.

``MEMCONV_MERGE_EXAMPLES`` raises the number of examples for a long run.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st
from click.testing import CliRunner

from memconv import dialects
from memconv.cli import main
from memconv.merge import memfmt as merge_memfmt
from memconv.model import Store, clone

from .conftest import GOLDEN, tree, write_files
from .test_merge_dialect_properties import BASES as RECORD_BASES
from .test_merge_dialect_properties import replica

EXAMPLES = max(2, int(os.environ.get("MEMCONV_MERGE_EXAMPLES", "12")) // 3)
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
BASES = {**RECORD_BASES, "memoir": GOLDEN / "memoir" / "canonical" / "input"}
DIALECTS = sorted(BASES)


def _memoir_replica(base: Store, draw) -> Store:
    out = Store(dialect="memoir", meta=dict(base.meta), working_set=base.working_set, foreign=base.foreign)
    for record in base.records:
        op = draw(st.sampled_from(["keep", "keep", "drop", "text", "date"]))
        if op == "drop":
            continue
        if op != "keep":
            record = clone(record, keep_source=True)
            value = draw(st.integers(0, 1))
            if op == "text":
                record.body = ["first words\n", "second words\n"][value]
            else:
                record.updated = ["2026-09-01", "2026-10-01"][value]
        out.records.append(record)
    return out


def _store(dialect: str, root: Path, draw) -> Path:
    base = dialects.get(dialect).read(BASES[dialect])
    made = _memoir_replica(base, draw) if dialect == "memoir" else replica(dialect, base, draw)
    write_files(root, dialects.get(dialect).write(made))
    return root


def _into(source: str, target: str, in_path: Path, existing: Path, *more: str):
    return CliRunner().invoke(main, ["convert", "--from", source, "--to", target, str(in_path),
                                     "--into", str(existing), *more])


def _identities(dialect: str, root: Path) -> set[str]:
    store = dialects.get(dialect).read(root)
    return {merge_memfmt.RULES.identity(r) if dialect == "memfmt" else r.link for r in store.records}


def _backups(folder: Path) -> list[Path]:
    return sorted(folder.parent.glob(f"{folder.name}.memconv-backup-*"))


@pytest.mark.parametrize("target", DIALECTS)
@SETTINGS
@given(data=st.data())
def test_importing_the_same_store_twice_changes_nothing_the_second_time(target, data):
    source = data.draw(st.sampled_from(DIALECTS), label="source")
    seeded = data.draw(st.booleans(), label="EXISTING already holds an earlier import")
    with tempfile.TemporaryDirectory(prefix="memconv-into-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None) \
            as tmp:
        tmp = Path(tmp)
        existing = _store(target, tmp / "existing", data.draw)
        in_path = _store(source, tmp / "in", data.draw)
        plain = CliRunner().invoke(main, ["convert", "--from", source, "--to", target, str(in_path),
                                          str(tmp / "plain")])
        assume(plain.exit_code in (0, 3))  # the property is about importing what converts (see the report)
        if seeded:
            earlier = _store(source, tmp / "earlier", data.draw)
            seed = _into(source, target, earlier, existing)
            assume(seed.exit_code in (0, 3, 6))
        before = _identities(target, existing)
        first = _into(source, target, in_path, existing, "--json")
        assert first.exit_code in (0, 3, 6), first.output
        by_carry = {r["identity"] for r in json.loads(first.stdout)["records"] if "memconv carry" in (r["why"] or "")}
        lost = before - _identities(target, existing)
        assert lost <= by_carry, f"no silent loss: every record EXISTING had is still there ({lost})"
        once = tree(existing)
        backups = _backups(existing)
        second = _into(source, target, in_path, existing)
        assert second.exit_code in (0, 3), f"the second import reports no new conflict:\n{second.output}"
        assert tree(existing) == once, "into(into(E, I), I) is byte-identical to into(E, I)"
        assert _backups(existing) == backups, "nothing to change: no backup made"
        assert "nothing to change" in second.output
        shutil.rmtree(tmp / "in")
