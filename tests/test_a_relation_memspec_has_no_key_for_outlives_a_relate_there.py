"""A relation memspec has no edge key for (memfmt's ``works_with``) outlives an edge added there by ``relate``.

memspec shows such a relation as a ``**Relations:**`` line of the claim's body; its edge keys hold the rest. An edge
added there (``memspec relate``, a ``supersede --merge-from``) changed the claim's edges, so the edit won and the
carried edges were dropped, the ``works_with`` among them, which memspec never held and the user never touched: the
entity came home without it, with "0 dropped" and exit 0 under ``--fail-on-loss``. With the body edited as well, the
line came home as two facts (``**Relations:**``, ``- works_with → [[Bob]]``).
"""

from __future__ import annotations

import pytest

from memconv.cli import main

from .reference_tools import memspec, needs_memspec

ANA = "---\nmemfmt_type: entity\nentity_type: person\n---\n\n# Ana\n\n## Facts\n\n- writes Rust\n\n" \
      "## Relations\n\n- works_with → [[Bob]]\n- depends_on → [[Bob]]\n"
BOB = "---\nmemfmt_type: entity\nentity_type: person\n---\n\n# Bob\n\n## Facts\n\n- tall\n"


def _in_memspec(runner, tmp_path):
    entities = tmp_path / "in" / "memory" / "entities"
    entities.mkdir(parents=True)
    (entities / "Ana.md").write_text(ANA, encoding="utf-8")
    (entities / "Bob.md").write_text(BOB, encoding="utf-8")
    done = runner.invoke(main, ["memfmt-to-memspec", str(tmp_path / "in"), str(tmp_path / "ms")])
    assert done.exit_code == 0, done.output
    claims = {p.read_text(encoding="utf-8").split("\n# ", 1)[1].split("\n", 1)[0]: p
              for p in (tmp_path / "ms" / ".memspec" / "memory").rglob("ms_*.md")}
    return claims["Ana"], claims["Bob"]


def _home(runner, tmp_path, *options):
    done = runner.invoke(main, ["memspec-to-memfmt", *options, str(tmp_path / "ms"), str(tmp_path / "back")])
    return done, (tmp_path / "back" / "memory" / "entities" / "Ana.md").read_text(encoding="utf-8")


def _relate(ana, bob):
    """``memspec relate --from Ana --to Bob --type supports``, as it writes the claim (a key before ``ext``)."""
    text = ana.read_text(encoding="utf-8")
    assert "\nsupports:" not in text and "\ndepends_on:\n" in text
    ana.write_text(text.replace("\ndepends_on:\n", f"\nsupports:\n  - {bob.stem}\ndepends_on:\n", 1), encoding="utf-8")


def test_a_relation_memspec_has_no_key_for_comes_home_beside_an_edge_added_there(runner, tmp_path):
    ana, bob = _in_memspec(runner, tmp_path)
    assert f"- works_with → [[{bob.stem}]]" in ana.read_text(encoding="utf-8"), "memspec shows it in the body"
    _relate(ana, bob)
    done, back = _home(runner, tmp_path, "--fail-on-loss")
    assert done.exit_code == 0, done.output
    assert back.endswith("## Relations\n\n- works_with → [[Bob]]\n- supports → [[Bob]]\n- depends_on → [[Bob]]\n")


def test_a_relation_memspec_has_no_key_for_comes_home_as_a_relation_when_the_body_was_edited_too(runner, tmp_path):
    ana, bob = _in_memspec(runner, tmp_path)
    _relate(ana, bob)
    ana.write_text(ana.read_text(encoding="utf-8").replace("\nwrites Rust\n", "\nwrites Rust and Go\n"),
                   encoding="utf-8")
    done, back = _home(runner, tmp_path)
    assert done.exit_code == 0, done.output
    assert back.endswith("## Facts\n\n- writes Rust and Go\n\n"
                         "## Relations\n\n- works_with → [[Bob]]\n- supports → [[Bob]]\n- depends_on → [[Bob]]\n")


def test_a_relation_line_taken_out_in_memspec_beside_a_relate_is_taken_out(runner, tmp_path):
    ana, bob = _in_memspec(runner, tmp_path)
    _relate(ana, bob)
    text = ana.read_text(encoding="utf-8")
    ana.write_text(text.replace(f"\n\n**Relations:**\n\n- works_with → [[{bob.stem}]]\n", "\n"), encoding="utf-8")
    done, back = _home(runner, tmp_path)
    assert done.exit_code == 0, done.output
    assert back.endswith("## Relations\n\n- supports → [[Bob]]\n- depends_on → [[Bob]]\n")


@needs_memspec
@pytest.mark.parametrize("args", [("relate", "--type", "supports"), ("supersede", "--reason", "one person")])
def test_memspecs_own_commands_keep_the_relation(runner, tmp_path, args):
    ana, bob = _in_memspec(runner, tmp_path)
    if args[0] == "relate":
        ran = memspec(tmp_path / "ms", "relate", "--from", ana.stem, "--to", bob.stem, *args[1:])
    else:  # Bob merged into Ana: Ana, the survivor, supersedes Bob
        ran = memspec(tmp_path / "ms", "supersede", ana.stem, "--merge-from", bob.stem, *args[1:])
    assert ran.returncode == 0, ran.stdout + ran.stderr
    done, back = _home(runner, tmp_path)  # (a merge's reason has no place on a memfmt entity: said dropped)
    assert done.exit_code == 0, done.output
    assert "- works_with → [[Bob]]\n" in back
