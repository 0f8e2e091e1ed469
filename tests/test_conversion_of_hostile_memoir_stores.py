"""memoir stores with hostile text (any unicode, quotes, colons, links) survive every other dialect and back."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memconv.dialects import memoir
from memconv.model import Store

from .convert_helpers import DIALECTS, hop, model, read_files
from .test_memoir_model_roundtrip import records


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(rs=st.lists(records(), min_size=1, max_size=4), data=st.data())
def test_a_memoir_store_comes_back_from_any_dialect(rs, data):
    for i, r in enumerate(rs):
        r.link = f"{r.kind}_{i}"
    links = [r.link for r in rs]
    for r in rs:  # wikilinks between entries, some inside code, where they must stay as written
        target = data.draw(st.sampled_from(links))
        r.body += data.draw(st.sampled_from([f"See [[{target}]].\n", f"`[[{target}]]`\n",
                                             f"```\n[[{target}]]\n```\n", ""]))
    store = read_files(memoir.write(Store(dialect="code", records=rs)), "memoir")
    via = data.draw(st.sampled_from([d for d in DIALECTS if d != "memoir"]))
    there, _ = hop(store, via)
    back, _ = hop(there, "memoir")
    assert model(back) == model(store), f"memoir→{via}→memoir keeps every record"
