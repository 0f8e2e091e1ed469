"""The memfmt library's own load and serialise on every conversion into memfmt, then the way back: nothing lost.

A memfmt user's tools read a store with ``memfmt.load`` and write it back with
``memfmt.serialise`` + ``write_dir``: whatever memconv put where the library
does not keep it would be gone. Each golden conversion into memfmt is
rewritten so, in place (with the profile's ``generated:`` as the library's
date: it stamps today's otherwise), and converted back to its source dialect:
the same records, the same working set, nothing dropped.
"""

from __future__ import annotations

import re
import shutil

import memfmt
import pytest

from memconv import dialects, pipeline
from memconv.report import Report

from . import golden
from .conftest import GOLDEN, write_files
from .convert_helpers import golden_inputs, model

CASES = [pytest.param(d, n, id=f"{d}/{n}") for d, n in golden_inputs() if d != "memfmt"]


@pytest.mark.parametrize(("dialect", "name"), CASES)
def test_a_conversion_rewritten_by_the_memfmt_library_comes_back_whole(dialect, name, tmp_path):
    root = tmp_path / "memfmt"
    shutil.copytree(golden.converted_folder(dialect, name, "memfmt"), root)
    profile = root / "memory" / "profile.md"
    day = re.search(r"^generated: (\S+)$", profile.read_text(encoding="utf-8"), re.M) if profile.is_file() else None
    memory = memfmt.load(root / "memory")
    ours = dialects.get("memfmt").read(root)
    assert len(memory.entities) + len(memory.episodes) + len(memory.procedures) + (memory.profile is not None) \
        == len(ours.records), "the library reads every record memconv wrote"
    memfmt.write_dir(memfmt.serialise(memory, generated=day.group(1) if day else None), root)

    source = dialects.get(dialect).read(GOLDEN / dialect / name / "input")
    report = Report(command="convert", input=str(root))
    plan = pipeline.plan(dialects.get("memfmt").read(root), dialect, report)
    write_files(tmp_path / "back", plan.files)
    back = dialects.get(dialect).read(tmp_path / "back")
    assert model(back) == model(source), "every record and the working set come back as they were"
    assert [f.dropped for f in report.files if f.dropped] == [], "nothing is dropped"
