"""A memory linking the working set's rendering, which is no memory at home, is warned about; the link is kept.

memspec's ``supersede <the working set's claim> --body …`` writes a new claim with ``supersedes: [the rendering's
id]``. Home in memoir, the rendering is the session state again (session.json), and the new claim a fact whose
relation ``supersedes → [[ms_…]]`` names a memory memoir does not have; before, nothing said so (found in the
forty-first session). The link is kept as written: converting the store to memspec again gives the rendering its
id back, and the link resolves there.
"""

from __future__ import annotations

from memconv import dialects

from .convert_helpers import claim_superseded_in_memspec, plan_written
from .reference_tools import needs_memspec


@needs_memspec
def test_a_claim_superseding_the_working_set_s_rendering_says_its_link_at_home(tmp_path):
    out = tmp_path / "memspec"
    claim, said = claim_superseded_in_memspec(out, "# Working set", "--body", "Goals: ship v2", "--reason", "x")
    assert "Superseded" in said

    home = tmp_path / "home"
    report = plan_written(dialects.get("memspec").read(out), "memoir", home)
    fact = (home / "memory" / "fact_working-set.md").read_text(encoding="utf-8")
    assert f"supersedes → [[{claim}]]" in fact, "the edge is kept as written, for the way back"
    said = [w for f in report.files if "fact_working-set" in (f.target or "") for w in f.warnings if claim in w]
    assert said and "the working set" in said[0], [(f.target, f.warnings) for f in report.files]

    again = tmp_path / "again"
    plan_written(dialects.get("memoir").read(home), "memspec", again)
    assert (again / ".memspec" / "memory" / "facts" / f"{claim}.md").is_file(), \
        "converted again, the rendering has its id back: the link resolves"
