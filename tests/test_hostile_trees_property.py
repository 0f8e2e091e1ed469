"""Hypothesis builds hostile folders (odd names, links in and out, FIFOs, nesting) and memconv runs on them.

Properties, checked by listing the sandbox afterwards: no uncaught exception,
nothing written outside OUT, IN unchanged, every entry either read or refused by
name. A bounded run is in the normal suite; ``MEMCONV_LONG_FUZZ=1`` runs many more.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from memconv import fs
from memconv.cli import main

from .test_hostile_sandbox import _snapshot

LONG = bool(os.environ.get("MEMCONV_LONG_FUZZ"))

_name = st.sampled_from(["a.md", "MEMORY.md", "memory", "session.json", ".memspec", "x\\y.md", "bell\x07.md",
                         "C:", "é.md", "Ａ.md", "a" * 255, ".git", ".memconv", "quarantine", "..md", "-", " .md"]) \
    | st.text(st.characters(exclude_categories=("Cs",), exclude_characters="/\x00"), min_size=1, max_size=20)
_content = st.sampled_from([b"", b"---\ntype: fact\nname: A\n---\nbody\n", b"---\nmemfmt_type: entity\n---\n# A\n",
                            b"{\"version\": 1}", b"\xff\xfe\x00", b"---\n- [\n---\n"]) | st.binary(max_size=64)
_entry = st.tuples(st.lists(_name, min_size=1, max_size=3),
                   st.sampled_from(["file", "file", "file", "dir", "fifo", "link-in", "link-out", "link-up",
                                    "link-dangling", "link-dir"]),
                   _content)


def _build(root, entries, outside) -> None:
    for parts, kind, data in entries:
        path = root.joinpath(*parts)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if os.path.lexists(path):
                continue
            if kind == "file":
                path.write_bytes(data)
            elif kind == "dir":
                path.mkdir()
            elif kind == "fifo":
                os.mkfifo(path)
            elif kind == "link-in":
                path.symlink_to(os.path.relpath(root / parts[0], path.parent))
            elif kind == "link-out":
                path.symlink_to(outside / "secret.md")
            elif kind == "link-up":
                path.symlink_to("../" * len(parts) + "outside")
            elif kind == "link-dangling":
                path.symlink_to("nowhere")
            else:
                path.symlink_to(root)
        except OSError:
            continue  # the file system refused the name or shape: not a case


@pytest.mark.long_fuzz
@settings(max_examples=400 if LONG else 25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(_entry, max_size=8), st.sampled_from(["memoir", "claude", "memspec", "memfmt"]),
       st.sampled_from(["memoir", "claude", "memspec", "memfmt"]), st.booleans())
def test_a_hostile_tree_never_breaks_memconv(tmp_path_factory, entries, source, target, check):
    box = tmp_path_factory.mktemp("box")
    (box / "outside").mkdir()
    (box / "outside" / "secret.md").write_bytes(b"---\ntype: fact\nname: S\n---\nSECRET-OUTSIDE\n")
    root = box / "in"
    root.mkdir()
    _build(root, entries, box / "outside")
    before = _snapshot(box)
    args = ["check", "--from", source, "--via", target, "--json", str(root)] if check else \
        ["convert", "--from", source, "--to", target, "--json", str(root), str(box / "out")]
    result = CliRunner().invoke(main, args)
    event(f"exit {result.exit_code}")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.stderr
    assert result.exit_code in (0, 1, 2, 3, 4, 5), result.stderr
    if result.exit_code == 2:  # a refusal of the store as a whole (not this dialect, empty): it says which folder
        assert str(root) in result.stderr and "error:" in result.stderr
    assert json.loads(result.stdout)["exit_code"] == result.exit_code if result.stdout.startswith("{") else True
    assert _snapshot(box, skip=box / "out") == before, "IN unchanged, nothing written outside OUT"
    if (box / "out").exists():
        assert not any(b"SECRET-OUTSIDE" in p.read_bytes() for p in (box / "out").rglob("*") if p.is_file())
    leftovers = [n for d in fs.scratch_dirs() for n in os.listdir(d) if n.startswith(f"memconv-") and
                 f"-{os.getpid()}-" in n]
    assert leftovers == []
    shutil.rmtree(box)
