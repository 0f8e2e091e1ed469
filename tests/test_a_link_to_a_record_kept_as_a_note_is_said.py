"""A live record linking a record kept out as a note is warned about, each link named, and nothing is changed.

A record not live in the target (retracted in memspec, hidden in the source) is kept out of the live set as a
note under ``.memconv/notes/`` (docs/conversion.md, "A state changed in the target wins"). The records that link
it keep their links as written (the edge and the text are the user's, and the way back needs them), but in the
target those links point at no memory; before, nothing said so (found in the forty-first session: a decision
retracted in memspec came home as a note, and ``superseded_by:`` and ``[[…]]`` links to it were silent).
"""

from __future__ import annotations

import shutil

from memconv import dialects

from .conftest import GOLDEN
from .convert_helpers import claim_superseded_in_memspec, plan_written
from .reference_tools import needs_memspec

CANONICAL = GOLDEN / "memoir" / "canonical" / "input"


def _said(report, source_part):
    return [w for f in report.files if source_part in (f.source or "") for w in f.warnings]


def test_a_link_to_a_hidden_decision_is_said_on_a_conversion(tmp_path):
    store = tmp_path / "memoir"
    shutil.copytree(CANONICAL, store)
    fact = store / "memory" / "fact_staging-endpoints.md"
    fact.write_text(fact.read_text(encoding="utf-8") + "\nSee also [[decision_client-name]].\n", encoding="utf-8")
    report = plan_written(dialects.get("memoir").read(store), "claude", tmp_path / "claude")
    said = [w for w in _said(report, "fact_staging-endpoints") if "decision_client-name" in w]
    assert said and "kept as a note" in said[0] and ".memconv/notes/decision_client-name" in said[0], \
        _said(report, "fact_staging-endpoints")
    written = (tmp_path / "claude" / "reference_staging-endpoints.md").read_text(encoding="utf-8")
    assert "[[decision_client-name]]" in written, "the link is kept as written: nothing is lost"


@needs_memspec
def test_links_to_a_decision_retracted_in_memspec_are_said_on_the_way_home(tmp_path):
    out = tmp_path / "memspec"
    assert "Retracted" in claim_superseded_in_memspec(out, '"link":"decision_local-db-choice"', "--reason", "moot")[1]

    home = tmp_path / "home"
    report = plan_written(dialects.get("memspec").read(out), "memoir", home)
    assert (home / ".memconv" / "notes" / "decision_local-db-choice.md").is_file()
    for linking in ("decision_redis-cache", "fact_staging-endpoints"):
        said = [w for f in report.files if linking in (f.target or "") for w in f.warnings
                if "decision_local-db-choice" in w]
        assert said and "kept as a note" in said[0], (linking, [f.warnings for f in report.files])
    redis = (home / "memory" / "decision_redis-cache.md").read_text(encoding="utf-8")
    assert "superseded_by: decision_local-db-choice" in redis and "[[decision_local-db-choice]]" in redis, \
        "the edge and the link stay as written, for the way back"


def test_an_index_line_linking_a_memory_retracted_in_memspec_is_said(tmp_path):
    # forty-seventh session. Watched fail: MEMORY.md kept '[Grafana boards](reference_grafana.md)' over a file that
    # went to .memconv/notes/, and only the records linking it were said: Claude Code's index pointed at nothing.
    from memconv.model import Lifecycle

    from .convert_helpers import convert_files, read_files

    source = GOLDEN / "claude" / "mixed-project" / "input"  # a hand-written index: it comes home as written
    files, _ = convert_files(dialects.get("claude").read(source), "memspec")
    ms = read_files(files, "memspec")
    claim = next(r for r in ms.records if r.title == "Grafana boards")
    claim.lifecycle = Lifecycle("superseded", reason="moved to the wiki")
    files, report = convert_files(ms, "claude")
    assert "reference_grafana.md" not in files and any(p.startswith(".memconv/notes/reference_grafana") for p in files)
    assert files["MEMORY.md"] == (source / "MEMORY.md").read_bytes(), "the line is kept as written, for the way back"
    said = [w for w in report.warnings if w.startswith("MEMORY.md: ") and "reference_grafana.md" in w]
    assert len(said) == 1 and "kept as a note (.memconv/notes/reference_grafana" in said[0], report.warnings
