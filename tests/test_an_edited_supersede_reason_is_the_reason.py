"""The reason one memspec claim superseded another, edited or emptied on its ``**Supersede reason:**`` line in memoir,
claude or memfmt (which have no key for it), is the claim's new ``supersede_reason`` at home.

Before (found by fuzzing labelled lines of converted golden stores, 2026-12-05): the edited line came home as a
paragraph of the claim's body, beside the old reason, which stayed in the frontmatter.
"""

from __future__ import annotations

import pytest

from memconv.cli import main

from .conftest import GOLDEN

CLAIM = ".memspec/memory/facts/ms_01KN49FJ20XS6Y1EYPJ9ZTW94H.md"
OLD = ("**Supersede reason:** The old claim said sessions were cookie-only; the auth rewrite moved every client to "
       "short-lived JWTs with refresh tokens, so the claim was replaced.")


def _home(runner, tmp_path, target, line):
    out = tmp_path / target
    assert runner.invoke(main, [f"memspec-to-{target}", str(GOLDEN / "memspec" / "current-every-field" / "input"),
                                str(out)]).exit_code == 0
    shown = [p for p in out.rglob("*.md") if ".memconv" not in p.parts and OLD in p.read_text(encoding="utf-8")]
    assert len(shown) == 1
    shown[0].write_text(shown[0].read_text(encoding="utf-8").replace(OLD, line), encoding="utf-8")
    back = runner.invoke(main, [f"{target}-to-memspec", str(out), str(tmp_path / "back"), "--fail-on-loss"])
    assert back.exit_code == 0, back.stderr
    assert "supersede_reason" in back.stderr  # said edited
    return (tmp_path / "back" / CLAIM).read_text(encoding="utf-8")


@pytest.mark.parametrize("target", ["memoir", "claude", "memfmt"])
def test_an_edited_reason_is_the_claims_new_reason(runner, tmp_path, target):
    claim = _home(runner, tmp_path, target, "**Supersede reason:** Sessions moved to JWTs.")
    assert "\nsupersede_reason: Sessions moved to JWTs.\n" in claim
    assert "Supersede reason" not in claim and "cookie-only" not in claim


@pytest.mark.parametrize("target", ["memoir", "claude", "memfmt"])
def test_an_emptied_reason_takes_the_claims_reason_out(runner, tmp_path, target):
    claim = _home(runner, tmp_path, target, "**Supersede reason:**")
    assert "supersede_reason" not in claim and "Supersede reason" not in claim and "cookie-only" not in claim
