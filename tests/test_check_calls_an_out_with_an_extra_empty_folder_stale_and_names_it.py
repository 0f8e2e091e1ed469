"""``--check`` calls an OUT holding an empty folder memconv did not write stale (exit 1), and names the folder.

Before (forty-fourth session, found by a hunt): ``--check`` compared files only, so an OUT that held everything
right plus an empty ``emptydir/`` was "up to date" (exit 0), while the run with ``--force`` refused that OUT ("holds
what memconv did not write: emptydir/", exit 4). ``--check`` says whether the run would leave OUT as it is; it would
not (docs/cli.md).
"""
import json

from memconv.cli import main

from .conftest import GOLDEN

IN = GOLDEN / "memoir" / "canonical" / "input"


def _out(runner, tmp_path):
    out = tmp_path / "out"
    assert runner.invoke(main, ["memoir-to-memfmt", str(IN), str(out)]).exit_code == 0
    return out


def test_an_extra_empty_folder_is_stale_and_named(runner, tmp_path):
    out = _out(runner, tmp_path)
    (out / "emptydir" / "inner").mkdir(parents=True)
    result = runner.invoke(main, ["memoir-to-memfmt", "--check", str(IN), str(out)])
    assert result.exit_code == 1, result.output
    assert "would change: emptydir/ (deleted)" in result.output, result.output
    assert "emptydir/inner/" not in result.output, "the outermost empty folder is said, once"
    forced = runner.invoke(main, ["memoir-to-memfmt", "--force", str(IN), str(out)])
    assert forced.exit_code == 4 and "emptydir/" in forced.output, "what --check foretells"


def test_the_json_report_and_the_diff_name_it_too(runner, tmp_path):
    out = _out(runner, tmp_path)
    (out / "memory" / "empty").mkdir()
    result = runner.invoke(main, ["memoir-to-memfmt", "--check", "--json", str(IN), str(out)])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["differences"] == [{"path": "memory/empty/", "change": "deleted", "diff": "",
                                      "why": "an empty folder"}]
    shown = runner.invoke(main, ["memoir-to-memfmt", "--check", "--diff", str(IN), str(out)])
    assert shown.exit_code == 1 and "memory/empty/ (deleted" in shown.output, shown.output


def test_an_out_memconv_wrote_is_still_up_to_date(runner, tmp_path):
    out = _out(runner, tmp_path)
    result = runner.invoke(main, ["memoir-to-memfmt", "--check", str(IN), str(out)])
    assert result.exit_code == 0, result.output
