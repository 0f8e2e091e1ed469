"""A record of memfmt, memoir or Claude converted to memspec and merged there with memspec's own tool (``memspec
supersede <kept> --merge-from <other> --reason …``) comes home with the person's reason shown on the
``**Supersede reason:**`` line an arriving claim gets, not counted dropped; converting home's file to memspec again
gives the claim its ``supersede_reason`` back, and not a second time in its body.

Before (2026-12-07): the reason was in no file of the way home, the report said "lifecycle: brought home from another
dialect, and memfmt's files have no place for them: dropped", and ``--fail-on-loss`` exited 5.
"""

from __future__ import annotations

import pytest

from memconv.cli import main

from .reference_tools import memspec, memspec_load, needs_memspec

REASON = "Bob is Ana, one person"
LINE = f"**Supersede reason:** {REASON}"

#: Two people of each dialect; Ana will supersede Bob in memspec (the store of
#: test_a_record_superseded_in_memspec_stays_a_note_at_home_every_round.py too).
STORES = {
    "memfmt": {
        "memory/entities/Ana.md": "---\nmemfmt_type: entity\nentity_type: person\n---\n\n# Ana\n\n## Facts\n\n"
                                  "- writes Rust\n",
        "memory/entities/Bob.md": "---\nmemfmt_type: entity\nentity_type: person\n---\n\n# Bob\n\n## Facts\n\n"
                                  "- is tall\n",
    },
    "memoir": {
        "memory/fact_ana.md": "---\ntype: fact\nname: Ana\ndescription: A person\n---\n\nAna writes Rust.\n",
        "memory/fact_bob.md": "---\ntype: fact\nname: Bob\ndescription: A person\n---\n\nBob is tall.\n",
    },
    "claude": {
        "MEMORY.md": "# Memory Index\n\n- [Ana](user_ana.md) — A person\n- [Bob](user_bob.md) — A person\n",
        "user_ana.md": "---\nname: Ana\ndescription: A person\ntype: user\n---\n\nAna writes Rust.\n",
        "user_bob.md": "---\nname: Bob\ndescription: A person\ntype: user\n---\n\nBob is tall.\n",
    },
}


def _merged_home(runner, tmp_path, dialect, *flags, files=None):
    src = tmp_path / "in"
    for path, text in (files or STORES[dialect]).items():
        (src / path).parent.mkdir(parents=True, exist_ok=True)
        (src / path).write_text(text, encoding="utf-8")
    ms = tmp_path / "ms"
    assert runner.invoke(main, [f"{dialect}-to-memspec", "-q", str(src), str(ms)]).exit_code == 0
    ids = {i["title"]: i["id"] for i in memspec_load(ms).items}
    done = memspec(ms, "supersede", ids["Ana"], "--merge-from", ids["Bob"], "--reason", REASON)
    assert done.returncode == 0, done.stdout + done.stderr
    home = tmp_path / "home"
    back = runner.invoke(main, [f"memspec-to-{dialect}", str(ms), str(home), *flags])
    return back, home, ids["Ana"]


@needs_memspec
@pytest.mark.parametrize("dialect", ["memfmt", "memoir", "claude"])
def test_the_reason_is_shown_at_home_and_is_no_loss(runner, tmp_path, dialect):
    back, home, _ = _merged_home(runner, tmp_path, dialect, "--fail-on-loss")
    assert back.exit_code == 0, back.stderr
    assert "dropped" not in "".join(w for w in back.stderr.splitlines() if "Ana" in w or "ana" in w)
    shown = [p for p in home.rglob("*.md") if ".memconv" not in p.parts and LINE in p.read_text(encoding="utf-8")]
    assert len(shown) == 1, "the person's words are where home's tool shows them"


@needs_memspec
@pytest.mark.parametrize("dialect", ["memfmt", "memoir", "claude"])
def test_the_reason_is_the_claims_again_in_memspec(runner, tmp_path, dialect):
    _, home, ana = _merged_home(runner, tmp_path, dialect)
    again = tmp_path / "again"
    done = runner.invoke(main, [f"{dialect}-to-memspec", str(home), str(again)])
    assert done.exit_code == 0, done.stderr
    claim = next(i for i in memspec_load(again).items if i["title"] == "Ana")
    text = (again / claim["file"]).read_text(encoding="utf-8")
    assert f"\nsupersede_reason: {REASON}\n" in text or f"\nsupersede_reason: '{REASON}'\n" in text
    assert "Supersede reason" not in text and text.count(REASON) == 1, text
    assert claim["id"] == ana


@needs_memspec
def test_an_edited_reason_line_at_home_is_the_new_reason(runner, tmp_path):
    _, home, _ = _merged_home(runner, tmp_path, "memoir")
    fact = next(p for p in home.rglob("*.md") if LINE in p.read_text(encoding="utf-8"))
    fact.write_text(fact.read_text(encoding="utf-8").replace(LINE, "**Supersede reason:** the same person"),
                    encoding="utf-8")
    again = tmp_path / "again"
    assert runner.invoke(main, ["memoir-to-memspec", str(home), str(again)]).exit_code == 0
    claim = next(i for i in memspec_load(again).items if i["title"] == "Ana")
    text = (again / claim["file"]).read_text(encoding="utf-8")
    assert "supersede_reason: the same person" in text and REASON not in text and "Supersede reason" not in text


DECISIONS = {
    "memory/decision_ana.md": "---\ntype: decision\nname: Ana\ndescription: A choice\ndate: 2026-05-02\n"
                              "created: 2026-05-02\n---\n\nUse Ana.\n",
    "memory/decision_bob.md": "---\ntype: decision\nname: Bob\ndescription: A choice\ndate: 2026-05-01\n"
                              "created: 2026-05-01\n---\n\nUse Bob.\n",
}


@needs_memspec
def test_a_decision_hidden_at_home_since_stays_hidden(runner, tmp_path):
    """The carry that marks the reason's line holds the lifecycle whole; only the reason is taken from it. Before (the
    first version of this fix), the carried state put a decision hidden in memoir since back to active in memspec,
    with 0 dropped."""
    _, home, _ = _merged_home(runner, tmp_path, "memoir", files=DECISIONS)
    ana = home / "memory" / "decision_ana.md"
    assert LINE in ana.read_text(encoding="utf-8")
    ana.write_text(ana.read_text(encoding="utf-8").replace(
        "created: 2026-05-02\n", "created: 2026-05-02\nhidden: true\nhidden_at: 2026-06-01T00:00:00Z\n"),
        encoding="utf-8")
    again, back = tmp_path / "again", tmp_path / "back"
    assert runner.invoke(main, ["memoir-to-memspec", str(home), str(again)]).exit_code == 0
    assert not [i for i in memspec_load(again).items if i["title"] == "Ana" and i.get("state") == "active"]
    assert runner.invoke(main, ["memspec-to-memoir", str(again), str(back)]).exit_code == 0
    text = (back / "memory" / "decision_ana.md").read_text(encoding="utf-8")
    assert "hidden: true" in text and REASON in text, text
