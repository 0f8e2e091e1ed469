"""A plain scalar is a number to memconv only where memspec's own YAML parser reads that number too.

memspec reads frontmatter with gray-matter's js-yaml 3 (the only YAML library among the target tools);
PyYAML, under memconv's reader, follows YAML 1.1, which reads ``0_`` as 0 and cannot build ``0x_``.
The judge is js-yaml itself, run by node from the reference build (docs/conversion.md, "Numbers in
frontmatter"). Where js-yaml alone reads a number (``1e3``: no dot), memconv keeps the text, as
memoir-cli does; memconv's memspec writer quotes such a text, so js-yaml reads it back as text.
"""

from __future__ import annotations

import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memconv import frontmatter as fmx
from memconv.dialects.memspec import jsyaml

from .reference_tools import MEMSPEC_DIST, needs_memspec, run_node

_READ = """
const yaml = require(process.argv[1]);
const out = {};
for (const text of JSON.parse(require('fs').readFileSync(0, 'utf8'))) {
  let value;
  try { value = yaml.safeLoad('k: ' + text).k; } catch (e) { out[text] = ['error']; continue; }
  out[text] = typeof value === 'number' ? ['number', isFinite(value) ? value : String(value)] : [typeof value, value];
}
console.log(JSON.stringify(out));
"""

#: Texts on both sides of every rule: signs, bases, underscores, sexagesimals, exponents, dots.
TABLE = ["0", "-0", "00", "017", "0777", "08", "09", "0_", "0_1", "1_", "-1_", "_1", "1__2", "1_000", "+12",
         "0b11", "+0b1", "0b1_", "0b_", "0b2", "0x1f", "0x_", "0o17", "10:30", "1:20:30", "1:60", "0:30", "1_:30",
         "190:20:30", "1:20.5", ".5", "+.5", "._5", "0.", "01.5", "1._5", "1_0.5", "1.5e+3", "1.5e3", "1e3", "1e+3",
         "12e3", "0.5e3", ".inf", "-.inf", ".NaN", "-.nan", "1.e+3"]


def _js_yaml(texts: list[str]) -> dict[str, list]:
    module = MEMSPEC_DIST.parent / "node_modules" / "js-yaml"
    done = run_node(["-e", _READ, str(module)], cwd=MEMSPEC_DIST.parent, stdin=json.dumps(texts))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _memconv(text: str):
    try:
        return fmx.load_yaml("k: " + text)["k"]
    except Exception as exc:  # noqa: BLE001 - any failure is a finding here
        return exc


def _agrees(text: str, js: list) -> bool:
    ours = _memconv(text)
    if js[0] == "error":  # not a scalar at all (``:``, ``- x``): both refuse it
        return isinstance(ours, Exception)
    if js[0] == "string":
        return ours == text
    if js[0] != "number":
        return False
    if isinstance(ours, bool) or not isinstance(ours, (int, float)):
        return False
    if isinstance(js[1], str):  # Infinity, -Infinity, NaN
        return str(ours) == {"Infinity": "inf", "-Infinity": "-inf", "NaN": "nan"}[js[1]]
    return math.isclose(ours, js[1])


@needs_memspec
def test_every_number_memconv_reads_is_the_number_js_yaml_reads():
    # Verified with PyYAML's own int pattern back in memconv/frontmatter.py: 0_, 1_, -1_, 0b1_ fail.
    js = _js_yaml(TABLE)
    # Where they differ, js-yaml alone reads a number, memconv keeps the text, and its memspec writer
    # quotes it.
    alone = [t for t in TABLE if js[t][0] == "number" and _memconv(t) == t]
    assert [t for t in TABLE if t not in alone and not _agrees(t, js[t])] == []
    assert alone == ["._5", "1.5e3", "1e3", "1e+3", "12e3", "0.5e3"]
    assert all(jsyaml.dump({"k": t}) == f"k: '{t}'" for t in alone)


_numberish = st.text(alphabet="0123456789_.:eE+-bxo", min_size=1, max_size=8)


@needs_memspec
@settings(max_examples=1, suppress_health_check=list(HealthCheck), deadline=None)
@given(st.lists(_numberish, min_size=300, max_size=300, unique=True))
def test_generated_number_like_texts_read_as_js_yaml_reads_them(texts):
    # One node run for 300 texts; where js-yaml alone reads a number, memconv's text must be quoted by
    # its memspec writer, so that memspec never reads a number memconv did not mean.
    texts = [t for t in texts if not t.startswith(("-", "."))  # a list item or a document marker to YAML
             or len(t) > 1 and t[1] not in " -."]
    js = _js_yaml(texts)
    for text in texts:
        ours = _memconv(text)
        if js[text][0] == "number" and ours == text:
            assert jsyaml.dump({"k": text}) != f"k: {text}", text
            continue
        assert _agrees(text, js[text]), (text, js[text], ours)
