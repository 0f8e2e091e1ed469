"""memspec has no field for a description: a memoir or Claude record's description is shown as the first paragraph
of the memspec body (readable.show). Edited there, the edit is the description's. Before, it came home as a new
first paragraph of the body beside the old description, which Claude Code's index and memoir-cli's listing kept
showing. What is not plainly an edit of that paragraph (it deleted, or moved) keeps the carried description.
"""

from __future__ import annotations

from .claude_support import frontmatter
from .convert_helpers import convert_files, read_files

FACT = (b"---\ntype: fact\nname: Staging endpoints\ndescription: Base URLs of staging\ncreated: 2026-05-14\n---\n\n"
        b"Staging runs at `https://staging.example.com`.\n\nTokens come from `scripts/mint-token.sh`.\n")


def _through_memspec(edit) -> dict[str, bytes]:
    files, _ = convert_files(read_files({"memory/fact_staging.md": FACT}, "memoir"), "memspec", release=True)
    [path] = [p for p in files if p.endswith(".md") and "/.memconv/" not in f"/{p}"]
    text = files[path]
    assert text.count(b"\n\nBase URLs of staging\n\n") == 1, "the description is the first paragraph, once"
    files[path] = edit(text)
    back, _ = convert_files(read_files(files, "memspec"), "memoir")
    return back


def test_an_edited_first_paragraph_is_the_description():
    back = _through_memspec(lambda t: t.replace(b"\n\nBase URLs of staging\n\n", b"\n\nBase URLs and auth of staging\n\n"))
    data = back["memory/fact_staging.md"]
    assert frontmatter(data)["description"] == "Base URLs and auth of staging"
    assert data.endswith(b"---\n\nStaging runs at `https://staging.example.com`.\n\n"
                         b"Tokens come from `scripts/mint-token.sh`.\n"), "the body is as it was, the edit not in it"


def test_the_paragraph_deleted_keeps_the_description():
    back = _through_memspec(lambda t: t.replace(b"\n\nBase URLs of staging\n\n", b"\n\n"))
    assert frontmatter(back["memory/fact_staging.md"])["description"] == "Base URLs of staging"


def test_a_body_paragraph_edited_leaves_the_description_alone():
    back = _through_memspec(lambda t: t.replace(b"Tokens come from", b"Tokens are minted by"))
    data = back["memory/fact_staging.md"]
    assert frontmatter(data)["description"] == "Base URLs of staging"
    assert b"Tokens are minted by `scripts/mint-token.sh`." in data and b"\n\nBase URLs of staging" not in data


def test_the_description_and_the_body_both_edited():
    """Before, the edited paragraph stayed in the body beside the carried description (docs/conversion.md)."""
    back = _through_memspec(lambda t: t.replace(b"\n\nBase URLs of staging\n\n", b"\n\nStaging URLs\n\n")
                            .replace(b"Tokens come from", b"Tokens are minted by"))
    data = back["memory/fact_staging.md"]
    assert frontmatter(data)["description"] == "Staging URLs"
    assert data.endswith(b"---\n\nStaging runs at `https://staging.example.com`.\n\n"
                         b"Tokens are minted by `scripts/mint-token.sh`.\n")


def test_labelled_lines_of_one_text_all_stay():
    """Only a line that repeats the description's paragraph is left out: ``**Why:** deploy`` and ``**When:**
    deploy`` say two things (a rule that left out any text said before dropped the second)."""
    from memconv.model import Record, Store

    lesson = Record(kind="lesson", link="lesson_deploy", title="Deploy", description="Ship it", body="Notes.\n",
                    trigger="deploy", how_to_apply="deploy", why="deploy")
    files, _ = convert_files(Store(dialect="memoir", records=[lesson]), "memspec")
    [text] = [d for p, d in files.items() if "/memory/" in p]
    body = text.split(b"\n---\n", 1)[1]
    assert b"\n\nShip it\n\n" in body and b"**Why:** deploy" in body and b"**When:** deploy" in body
