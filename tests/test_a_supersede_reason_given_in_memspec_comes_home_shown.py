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

STORES = {
    "memfmt": {
        "memory/entities/Ana.md": "---\nmemfmt_type: entity\nentity_type: person\n---\n\n# Ana\n\n## Facts\n\n"
                                  "- writes Rust\n",
        "memory/entities/Bob.md": "---\nmemfmt_type: entity\nentity_type: person\n---\n\n# Bob\n\n## Facts\n\n"
                                  "- tall\n",
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


def _merged_home(runner, tmp_path, dialect, *flags):
    src = tmp_path / "in"
    for path, text in STORES[dialect].items():
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
