"""A conversion into memfmt writes its records twice, once to read them back and once for good, and memfmt's writer
works out where every record goes before the first (its file plan: a path for each, an entity's name to its stem).
The two writes plan the same records beside the same files: the plan is made once (:class:`memfmt._Facts`), and
what it says (a name numbered because another folds to it) is said by the final write as before, once
(docs/performance.md: 17 MB at 100,000 records)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from memconv.cli import main


def _memoir(tmp_path, titles):
    src = tmp_path / "in"
    (src / "memory").mkdir(parents=True)
    for n, title in enumerate(titles):
        (src / "memory" / f"fact_{n}.md").write_text(
            f"---\ntype: fact\nname: {title}\ndescription: d{n}\ncreated: 2026-03-1{n}\n---\n\nBody {n}.\n")
    return src


def test_a_conversion_into_memfmt_plans_its_files_once_and_says_what_the_plan_says(tmp_path, monkeypatch):
    # Watched fail with each write making its own plan (_Facts.plan bypassed): two plans were counted.
    from memconv.dialects import memfmt

    plans = []
    real = memfmt._plan_of
    monkeypatch.setattr(memfmt, "_plan_of", lambda *a, **k: plans.append(1) or real(*a, **k))
    src, out = _memoir(tmp_path, ["Redis", "redis", "Postgres"]), tmp_path / "out"
    result = CliRunner().invoke(main, ["memoir-to-memfmt", str(src), str(out), "--json", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert len(plans) == 1, "the read-back's plan is the final write's"
    report = json.loads(result.stdout)
    said = [w for w in report["warnings"] if "but for case" in w]
    assert said == ["memory/entities/redis.md is written as memory/entities/redis (2).md: another file has that name "
                    "but for case or Unicode normalisation, and the two would be one file on macOS and Windows"]
    assert sorted(p.name for p in (out / "memory" / "entities").iterdir()) == \
        sorted(["Redis.md", "redis (2).md", "Postgres.md"])


def test_a_store_read_whose_records_all_keep_their_files_folds_no_name(tmp_path, monkeypatch):
    # Folding every name, to number records placed anew, was 10 MB at 100,000 entries at the read's high-water mark,
    # for none (docs/performance.md, "(thirty-fifth)"). Watched fail with the names folded whatever is pending.
    from memconv import pipeline
    from memconv.dialects import memfmt

    from .bench_support import bench_module

    root = bench_module("generators").make("memfmt", tmp_path / "memfmt", 30)
    folded = []
    monkeypatch.setattr(memfmt, "fold", lambda text: folded.append(text) or text.casefold())
    store = pipeline.read(root, "memfmt")
    assert len(store.records) >= 30 and folded == []
    # A record placed anew is still named against every name taken: the one written as the other's (2).
    src, out = _memoir(tmp_path, ["Redis", "redis"]), tmp_path / "out"
    result = CliRunner().invoke(main, ["memoir-to-memfmt", str(src), str(out), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (out / "memory" / "entities").iterdir()) == ["Redis.md", "redis (2).md"]
