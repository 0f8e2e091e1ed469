"""A record memconv quarantined in a memspec store stays out of the live store when memspec's own ``migrate`` runs.

memconv keeps a quarantined original in the folder its reader reads, ``.memspec/.memconv/quarantine/``, so that a
later run carries it. memspec 0.7.2's ``migrate --apply`` walks every ``.md`` file under ``.memspec/``, hidden folders
too, and rewrote and moved each one with an ``id`` to the folder its state names: the records memconv had held out
(``id: ms_notanid``, ``state: frozen``, ``verified_with: oracle``) were live in ``memory/facts/`` and ``archive/``,
their quarantine copies gone, and ``memconv check`` then read them as records. Such a copy is named ``.md.kept``
(memspec's ``KEPT_SUFFIX``, as in a Claude folder), which no memspec command reads, and read under its own name again.
"""

from __future__ import annotations

from memconv import dialects
from memconv.cli import main

from .conftest import GOLDEN, tree
from .reference_tools import memspec, memspec_load, needs_memspec

SOURCE = GOLDEN / "memspec" / "v02-dated-observations" / "input"
LIVE = tuple(f".memspec/{folder}/" for folder in ("memory", "observations", "archive"))


@needs_memspec
def test_memspec_s_migrate_leaves_memconv_s_quarantine_alone(runner, tmp_path):
    out = tmp_path / "out"
    result = runner.invoke(main, ["migrate", "--from", "memspec", str(SOURCE), str(out)])
    assert result.exit_code == 3, result.output  # four files quarantined
    before = tree(out)
    kept = sorted(p for p in before if p.startswith(".memspec/.memconv/quarantine/"))
    assert len(kept) == 4 and all(p.endswith(".md.kept") for p in kept), kept
    ids = sorted(i["id"] for i in memspec_load(out).items)
    live = sorted(p for p in before if p.startswith(LIVE))

    done = memspec(out, "migrate", "--apply")
    assert done.returncode == 0, done.stdout + done.stderr
    # Watched fail: 'Wrote 3 file(s)', ms_notanid and two more moved into memory/facts/ and archive/.
    assert sorted(p for p in tree(out) if p.startswith(LIVE)) == live, "no quarantined record became live"
    assert sorted(i["id"] for i in memspec_load(out).items) == ids
    assert {p: d for p, d in tree(out).items() if p in kept} == {p: before[p] for p in kept}, "the copies stay"

    result = runner.invoke(main, ["check", "--from", "memspec", str(out)])
    assert result.exit_code == 0, result.output
    back = dialects.get("memspec").read(out)
    assert sorted(f.path for f in back.foreign if "/quarantine/" in f.path) == [p[: -len(".kept")] for p in kept], \
        "read under their own names again"
