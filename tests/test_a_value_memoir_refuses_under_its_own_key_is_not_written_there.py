"""Another dialect's value ``memoir validate`` refuses under a key memoir reserves is not written under that key.

Before (forty-seventh session, reported): a Claude memory's ``created: last week`` or ``set_on: tomorrow``, a
memspec claim's or a memfmt entity's own ``date: someday`` or ``fired_count: many``, was written into memoir as it
stood; memoir-cli's validator wants an ISO 8601 date under each of its date keys (on an entry of any type) and a whole
number from 0 under a lesson's ``fired_count``, so it refused the file, and memconv exited 0 saying nothing. The value
now rides in the carry (home again exactly), and the conversion says so.

And then (forty-seventh session, reported): the value was in the carry only, which memoir's tools neither show nor
search. It is now a labelled line of the entry's body (``**created:** last week``), as an unknown key memoir has no
place for is, read back when edited or taken out there.
"""
import pytest

from memconv import api
from memconv.cli import main
from memconv.dialects.memoir.entries import write_entry
from memconv.report import kind_of

from .convert_helpers import assert_home_byte_for_byte
from .memoir_rules import entry_errors
from .memspec_decision import DECISION_ID, decision_text
from .reference_tools import memoir_validate, needs_memoir

REFUSED = "created: last week\nupdated: yesterday\ndate: someday\nset_on: tomorrow\nadded: soon\n" \
          "last_fired: never\nfired_count: many\n"
CLAUDE = "---\nname: Deploy steps\ndescription: how to deploy\ntype: {type}\n" + REFUSED + "---\nRun make deploy.\n"
MEMFMT = "---\nmemfmt_type: entity\nentity_type: person\n" + REFUSED + "---\n\n# Kenji\n\n## Facts\n\n- reviewer\n"
STORES = {  # dialect, file, its text
    **{f"claude {t}": ("claude", "deploy.md", CLAUDE.format(type=t)) for t in ("user", "feedback", "reference",
                                                                              "project")},
    "memspec": ("memspec", f".memspec/memory/decisions/{DECISION_ID}.md",
                decision_text(REFUSED.replace("created: last week\n", ""))),
    "memfmt": ("memfmt", "memory/entities/Kenji.md", MEMFMT),
}


def test_the_warning_has_a_kind_of_its_own():
    assert kind_of('created: "last week": memoir validate refuses this value there, so it is not written under that '
                   "key; carried in its memconv key, and home again as it was").name == "value-refused"


def _convert(runner, tmp_path, case):
    dialect, path, text = STORES[case]
    store = tmp_path / "in"
    (store / path).parent.mkdir(parents=True)
    (store / path).write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    result = runner.invoke(main, ["convert", "--from", dialect, "--to", "memoir", str(store), str(out)])
    assert result.exit_code == 0, result.output
    return out, result.output


@pytest.mark.parametrize("case", STORES)
def test_the_memoir_entry_is_valid_says_so_and_comes_home_byte_for_byte(runner, tmp_path, case):
    out, said = _convert(runner, tmp_path, case)
    [entry] = (out / "memory").glob("*.md")
    errors = entry_errors(entry.read_bytes())
    if case == "claude project":  # kept whole: a legacy entry, which memoir validate reads (the schema is canonical's)
        errors = [e for e in errors if not e.startswith("schema:")]
    assert errors == []
    assert "memoir validate refuses these values there" in said and '"someday"' in said, said
    dialect, path, text = STORES[case]
    written = entry.read_text(encoding="utf-8")
    frontmatter, body = written.split("\n---\n", 1)
    if case != "claude project":  # kept whole: its body is the file's own (left alone)
        refused = [line for line in REFUSED.splitlines() if line in text and f"\n{line}\n" not in frontmatter]
        assert refused and all(f"**{line.replace(': ', ':** ', 1)}" in body.splitlines() for line in refused), body
    assert_home_byte_for_byte(path, text.encode(), dialect, "memoir")


EDITS = {  # the line in memoir, what it is made, what home holds then, what it no longer holds
    "edited": ("\n**set_on:** tomorrow\n", "\n**set_on:** next week\n", "set_on: next week", "tomorrow"),
    "taken out": ("\n\n**last_fired:** never\n", "\n", None, "never"),
}


@pytest.mark.parametrize("edit", EDITS)
@pytest.mark.parametrize("case", ["claude feedback", "claude user", "memspec", "memfmt"])
def test_its_line_edited_or_taken_out_in_memoir_comes_home_so(runner, tmp_path, case, edit):
    out, _ = _convert(runner, tmp_path, case)
    [entry] = (out / "memory").glob("*.md")
    line, now, held, gone = EDITS[edit]
    written = entry.read_text(encoding="utf-8")
    assert line in written, written
    entry.write_text(written.replace(line, now), encoding="utf-8")
    back = tmp_path / "back"
    dialect, path, text = STORES[case]
    result = runner.invoke(main, ["convert", "--from", "memoir", "--to", dialect, str(out), str(back)])
    assert result.exit_code == 0, result.output
    home = (back / path).read_text(encoding="utf-8")
    assert gone not in home and (held is None or held in home), home
    assert "updated: yesterday" in home and "added: soon" in home, home
    # the body as it was (a Claude lesson's how_to_apply memoir made of its description is not added to it)
    assert home.split("\n---\n")[-1].strip() == text.split("\n---\n")[-1].strip(), home


def test_an_entry_read_from_memoir_keeps_what_it_had_when_edited(tmp_path):
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "kenji.md").write_text("---\ntype: fact\nname: Kenji\ndate: someday\n---\n\nA reviewer.\n")
    [record] = api.read_store(tmp_path, "memoir").records
    record.title = "Kenji T."
    assert write_entry(record) == b"---\ntype: fact\nname: Kenji T.\ndate: someday\n---\n\nA reviewer.\n"


@needs_memoir
@pytest.mark.parametrize("case", ["claude feedback", "memspec", "memfmt"])
def test_memoir_validate_accepts_it(runner, tmp_path, case):
    out, _ = _convert(runner, tmp_path, case)
    verdict = memoir_validate(out)
    assert verdict.ok, verdict.output
