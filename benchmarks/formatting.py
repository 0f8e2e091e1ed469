"""The figures behind "one formatting mechanism" (docs/conversion.md): carry size, cost, what survives an edit.

    python benchmarks/formatting.py            # on the golden stores, and a generated store for the cost

For every golden store and every other dialect, the store is converted there;
each record read from a hand-formatted file carries a format patch. Measured:

- the carry: bytes of every format patch, against the bytes of the files they
  stand for (what carrying the source file, or its layout, whole would cost);
- the survival after an edit: the last line of each such record's body is
  edited in the target, the store converted back, and the file compared with
  the original carrying the same edit: identical means every hand-made line
  survived;
- the cost: the CPU time of making the patches (one render of every source
  record) against the whole conversion, on a generated store.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from memconv import dialects  # noqa: E402
from memconv.converters import format_patch  # noqa: E402
from tests.convert_helpers import convert_files, read_files  # noqa: E402

GOLDEN = ROOT / "golden"


def golden_figures() -> dict:
    rows = []
    for dialect in ("memoir", "claude", "memspec", "memfmt"):
        for store_dir in sorted((GOLDEN / dialect).iterdir()):
            if not (store_dir / "input").is_dir():
                continue
            store = dialects.get(dialect).read(store_dir / "input")
            groups = {}
            for r in store.records:
                groups.setdefault(dialect, []).append(r)
            made = format_patch.patches(groups)
            if not made:
                continue
            originals = {r.source.path: r.source.raw for r in store.records if id(r) in made}
            patch_bytes = sum(len(json.dumps(p, ensure_ascii=False, separators=(",", ":"))) for p in made.values())
            file_bytes = sum(len(raw) for raw in originals.values())
            for via in ("memoir", "claude", "memspec", "memfmt"):
                if via == dialect:
                    continue
                files, _ = convert_files(store, via)
                for path, raw in originals.items():
                    last = [line for line in raw.decode("utf-8").splitlines() if line.strip()][-1].strip()
                    if len(last) < 12:
                        continue
                    edited, hits = dict(files), 0
                    for name, data in files.items():
                        head, sep, tail = data.partition(b"\n---\n")
                        body = tail if sep else head
                        if last.encode() in body and "memconv/" not in name and name.endswith(".md"):
                            new = body.replace(last.encode(), last.encode() + b" (edited)", 1)
                            edited[name] = head + sep + new if sep else new
                            hits += 1
                    if hits != 1:
                        continue
                    back, _ = convert_files(read_files(edited, via), dialect)
                    want = raw.replace(last.encode(), last.encode() + b" (edited)", 1)
                    rows.append({"store": f"{dialect}/{store_dir.name}", "via": via, "file": path,
                                 "survived": back.get(path) == want})
            rows.append({"store": f"{dialect}/{store_dir.name}", "patched files": len(made),
                         "patch bytes": patch_bytes, "file bytes": file_bytes})
    return rows


def cost(n: int = 4000) -> dict:
    from generators import make

    from memconv import converters

    out = {}
    with tempfile.TemporaryDirectory(dir="/dev/shm" if Path("/dev/shm").is_dir() else None) as tmp:
        for dialect, target in (("memoir", "memfmt"), ("claude", "memspec")):
            make(dialect, Path(tmp) / dialect, n)
            store = dialects.get(dialect).read(Path(tmp) / dialect)
            t0 = time.process_time()
            made = format_patch.patches({dialect: list(store.records)})
            t1 = time.process_time()
            converters.run(store, target)
            t2 = time.process_time()
            out[f"{dialect}-to-{target}"] = {"entries": n, "patched": len(made), "patches CPU s": round(t1 - t0, 2),
                                             "conversion CPU s": round(t2 - t1, 2)}
    return out


if __name__ == "__main__":
    rows = golden_figures()
    for row in rows:
        print(row)
    edits = [r for r in rows if "survived" in r]
    print(f"edited files whose hand formatting all survived: {sum(r['survived'] for r in edits)} of {len(edits)}")
    print(cost())
