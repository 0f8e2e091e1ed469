"""A memspec claim's edges are shown where memfmt shows text when it is a memfmt procedure or episode, and read home
from there when edited.

memfmt's relations are an entity's (``## Relations``); a procedure and an episode have none (``memfmt.model``). memfmt
declared any edge type held (``EDGE_TYPES = None``) for every kind, so a memspec procedure that ``supersedes``
another, or a decision (a memfmt episode) that ``depends_on`` a fact, had its edge only in memconv's carry (the
``memconv`` key), which memfmt neither shows nor searches. Now memfmt declares that only an entity says edges
(``EDGE_KINDS``): an episode shows them as a ``**Relations:**`` block of its body, a procedure as a
``**Relation:** …`` precondition each; a line taken out or edited in memfmt is the edge at home; an edge memspec added
to a memfmt procedure comes home shown so, not dropped (docs/memfmt.md, forty-seventh session).
"""

from __future__ import annotations

from pathlib import Path

import memfmt
import yaml

from memconv.cli import main

from .convert_helpers import convert_quietly
from .memfmt_oracle import validate

OLD = "ms_01KN9E9020GFWGMEAJVSM4XVEK"
NEW = "ms_01KNPA8K20A89R76HW86EQNMC1"
DECISION = "ms_01KN49FJ2028KAX7EADGMGE1FN"
NODE = "ms_01KNRWNA20VCD395V3FZBW4Z1W"
GIT = "ms_01KN6VW92007FGJ3K7XW52AH0T"
PROCEDURE = "memory/procedures/Release with CI.md"
EPISODE = "memory/episodes/Team A ships on Tuesdays.md"


def _claim(id_: str, type_: str, title: str, extra: str = "", state: str = "active") -> str:
    return (f"---\nid: {id_}\nkind: claim\ntype: {type_}\nstate: {state}\ncreated: '2026-08-03T10:30:00.000Z'\n"
            f"source: claude-code\nsource_kind: agent\ntags: []\ncheck_by: '2027-01-30T10:30:00.000Z'\n"
            f"verified_with: assertion\n{extra}---\n# {title}\n\n1. Push the tag.\n")


def _store(root: Path) -> Path:
    memory = root / ".memspec" / "memory"
    for folder in ("decisions", "facts", "procedures"):
        (memory / folder).mkdir(parents=True)
    (root / ".memspec" / "archive").mkdir()
    (root / ".memspec" / "archive" / f"{OLD}.md").write_text(
        _claim(OLD, "procedure", "Release by hand", f"superseded_by: {NEW}\n", "superseded"), encoding="utf-8")
    (memory / "procedures" / f"{NEW}.md").write_text(
        _claim(NEW, "procedure", "Release with CI", f"supersedes:\n  - {OLD}\ndepends_on:\n  - {NODE}\n"),
        encoding="utf-8")
    (memory / "decisions" / f"{DECISION}.md").write_text(
        _claim(DECISION, "decision", "Team A ships on Tuesdays", f"depends_on:\n  - {NODE}\n"), encoding="utf-8")
    for id_, title in ((NODE, "Node fact"), (GIT, "Git fact")):
        (memory / "facts" / f"{id_}.md").write_text(_claim(id_, "fact", title), encoding="utf-8")
    return root


def _there(runner, tmp_path: Path) -> Path:
    there = tmp_path / "memfmt"
    convert_quietly(runner, "memspec", "memfmt", _store(tmp_path / "in"), there)
    return there


def _home(runner, there: Path, out: Path, claim: str) -> tuple[dict, str]:
    back = runner.invoke(main, ["memfmt-to-memspec", "--fail-on-loss", str(there), str(out)])
    assert back.exit_code == 0, back.output
    _, frontmatter, body = (out / ".memspec" / "memory" / claim).read_text(encoding="utf-8").split("---\n", 2)
    return yaml.safe_load(frontmatter), body


def test_every_edge_is_in_the_text_memfmt_shows_and_comes_home_byte_for_byte(runner, tmp_path):
    there = _there(runner, tmp_path)
    library = memfmt.load(str(there / "memory"))
    procedure, = library.procedures
    assert "**Relation:** supersedes → [[ms_01KN9E9020GFWGMEAJVSM4XVEK]]" in procedure.preconditions
    assert "**Relation:** depends_on → [[Node fact]]" in procedure.preconditions
    episode, = library.episodes
    assert "**Relations:**\n\n- depends_on → [[Node fact]]" in episode.context
    assert validate(there / "memory")[0] == 0
    convert_quietly(runner, "memfmt", "memspec", there, tmp_path / "back")
    for claim in (f"memory/procedures/{NEW}.md", f"memory/decisions/{DECISION}.md", f"archive/{OLD}.md"):
        assert (tmp_path / "back" / ".memspec" / claim).read_bytes() \
            == (tmp_path / "in" / ".memspec" / claim).read_bytes(), claim


def test_a_relation_line_of_a_procedure_edited_in_memfmt_is_its_edge_at_home(runner, tmp_path):
    there = _there(runner, tmp_path)
    file = there / PROCEDURE
    text = file.read_text(encoding="utf-8")
    file.write_text(text.replace(f"- **Relation:** supersedes → [[{OLD}]]\n", "")
                    .replace("depends_on → [[Node fact]]", "depends_on → [[Git fact]]"), encoding="utf-8")
    frontmatter, body = _home(runner, there, tmp_path / "back", f"procedures/{NEW}.md")
    assert "supersedes" not in frontmatter and frontmatter["depends_on"] == [GIT]
    assert "Relation" not in body and "Preconditions" not in body


def test_a_procedures_preconditions_taken_out_in_memfmt_take_its_edges_out(runner, tmp_path):
    there = _there(runner, tmp_path)
    file = there / PROCEDURE
    text = file.read_text(encoding="utf-8")
    start = text.index("**Preconditions**")
    file.write_text(text[:start] + text[text.index("## Steps"):], encoding="utf-8")
    frontmatter, _ = _home(runner, there, tmp_path / "back", f"procedures/{NEW}.md")
    assert "supersedes" not in frontmatter and "depends_on" not in frontmatter

def test_a_relation_line_of_an_episode_edited_in_memfmt_is_its_edge_at_home(runner, tmp_path):
    there = _there(runner, tmp_path)
    file = there / EPISODE
    file.write_text(file.read_text(encoding="utf-8").replace("[[Node fact]]", "[[Git fact]]"), encoding="utf-8")
    frontmatter, body = _home(runner, there, tmp_path / "back", f"decisions/{DECISION}.md")
    assert frontmatter["depends_on"] == [GIT]
    assert "Relations" not in body


def test_an_edge_memspec_adds_to_a_memfmt_procedure_comes_home_shown(runner, tmp_path):
    home = tmp_path / "home" / "memory"
    (home / "procedures").mkdir(parents=True)
    (home / "entities").mkdir()
    (home / "procedures" / "Deploy.md").write_text(
        "---\nmemfmt_type: procedure\nversion: 1\nsuccess_count: 0\nfail_count: 0\n---\n\n# Deploy (v1 · untested)"
        "\n\n## Steps\n\n1. Push the tag.\n", encoding="utf-8")
    (home / "entities" / "Ops.md").write_text("---\nmemfmt_type: entity\n---\n\n# Ops\n\n## Facts\n\n- Runs CI.\n",
                                             encoding="utf-8")
    convert_quietly(runner, "memfmt", "memspec", tmp_path / "home", tmp_path / "memspec")
    claims = {p.read_text(encoding="utf-8").split("\n# ", 1)[1].split("\n")[0]: p
              for p in (tmp_path / "memspec" / ".memspec" / "memory").rglob("ms_*.md")}
    ops = claims["Ops"].stem
    claim = claims["Deploy"].read_text(encoding="utf-8")
    claims["Deploy"].write_text(claim.replace("\n---\n# Deploy", f"\ndepends_on:\n  - {ops}\n---\n# Deploy", 1),
                                encoding="utf-8")
    back = runner.invoke(main, ["memspec-to-memfmt", "--fail-on-loss", str(tmp_path / "memspec"),
                                str(tmp_path / "back")])
    assert back.exit_code == 0, back.output
    procedure, = memfmt.load(str(tmp_path / "back" / "memory")).procedures
    assert procedure.preconditions == ["**Relation:** depends_on → [[Ops]]"]
