"""A ``[[link]]`` naming a memfmt entity by its file's stem should follow the entity to its name in the target.

memfmt names an entity's file after its name, made a file name (``cloud/api.py`` lives in ``cloud-api.py.md``), and
a wikilink names a file: memfmt's own ``MEMORY.md`` lists ``[[cloud-api.py]]``, its relations say
``[[cloud-api.py|cloud/api.py]]``. memconv knows such an entity by its name, so before the fix a link of the text (a
fact, an episode's context, a relation's note, a precondition) that named it by its stem was renamed by no one, and
points at a file no target has, while links by name in the same line are renamed. Not fixed yet (docs/memfmt.md,
"Noticed, left alone"): renaming them on the way out alone (the stem as one more name of the entity in the converter's
renames) makes an edit in the target bring every such link of the edited field home as ``[[cloud/api.py]]``, a link
memfmt's files do not resolve, unedited lines too; the second test holds that.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .convert_helpers import convert_dir

API = "---\nmemfmt_type: entity\nentity_type: file\n---\n\n# cloud/api.py\n\n## Facts\n\n- the HTTP entry point\n"
ALI = ("---\nmemfmt_type: entity\nentity_type: person\n---\n\n# Ali\n\n## Facts\n\n- based in Tokyo\n"
       "- edits [[cloud-api.py|cloud/api.py]] daily\n- reviews [[cloud-api.py]] and [[cloud-api.py#Facts]]\n\n"
       "## Relations\n\n- maintains → [[cloud-api.py|cloud/api.py]] — with [[cloud-api.py]] tests\n")
TALK = ("---\nmemfmt_type: episode\nhappened: 2026-07-30\noutcome: kept\n---\n\n# a talk\n\n"
        "We read [[cloud-api.py|the API]] together.\n\n**Outcome** — kept\n")
FILES = {"entities/cloud-api.py.md": API, "entities/Ali.md": ALI, "episodes/2026-07-30-a talk.md": TALK}
#: What each target names the entity: its links are written so.
NAMED = {"claude": "reference_cloud-api-py", "memoir": "fact_cloud-api-py", "memspec": "ms_"}


def _store(root: Path) -> Path:
    for name, text in FILES.items():
        (root / "memory" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "memory" / name).write_bytes(text.encode())
    return root


@pytest.mark.xfail(strict=True, reason="a link by a memfmt entity's file stem is not renamed (docs/memfmt.md)")
@pytest.mark.parametrize("target", ["claude", "memoir", "memspec"])
def test_a_link_by_file_stem_points_at_the_entity_in_the_target_and_comes_home(tmp_path: Path, target):
    # Watched fail before the fix: every [[cloud-api.py…]] of the text stayed as written, a link to no file.
    source = _store(tmp_path / "in")
    out = convert_dir(source, target, tmp_path / "out")
    shown = [p.read_text().split("\n---\n", 1)[-1] for p in out.rglob("*.md") if ".memconv" not in p.parts]
    said = "\n".join(text for text in shown if "daily" in text or "together" in text)
    assert "daily" in said and "together" in said
    assert "[[cloud-api.py" not in said, said
    assert said.count(f"[[{NAMED[target]}") == 6, said  # each link of the text, its alias or part kept
    assert "|cloud/api.py]] daily" in said and "#Facts]]" in said and "|the API]] together" in said
    back = convert_dir(out, "memfmt", tmp_path / "back")
    for name, text in FILES.items():
        assert (back / "memory" / name).read_text() == text


def test_an_edit_in_the_target_brings_links_by_file_stem_home_as_written(tmp_path: Path):
    # Watched fail with the stem renamed on the way out only: both lines came home as [[cloud/api.py…]].
    out = convert_dir(_store(tmp_path / "in"), "claude", tmp_path / "out")
    ali = out / "reference_ali.md"
    ali.write_text(ali.read_text().replace(" daily\n", " weekly\n"))
    back = convert_dir(out, "memfmt", tmp_path / "back")
    text = (back / "memory" / "entities" / "Ali.md").read_text()
    assert "- edits [[cloud-api.py|cloud/api.py]] weekly\n" in text
    assert "- reviews [[cloud-api.py]] and [[cloud-api.py#Facts]]\n" in text
