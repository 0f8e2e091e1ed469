"""Any record memoir can say, written and read back, is the same model (hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memconv.dialects import memoir
from memconv.model import Edge, Lifecycle, Origin, Record, Store, meaning

from .memoir_rules import entry_errors

_text = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40).filter(
    lambda s: s.strip() == s and "\ufeff" not in s and "\u2028" not in s and "\u2029" not in s and "\x85" not in s
)
_date = st.dates().map(lambda d: d.isoformat()).filter(lambda s: len(s) == 10)
_datetime = st.datetimes(timezones=st.just(__import__("datetime").timezone.utc)).map(
    lambda d: d.strftime("%Y-%m-%dT%H:%M:%SZ")).filter(lambda s: len(s) == 20)
_when = st.one_of(_date, _datetime)
_opt = lambda s: st.one_of(st.none(), s)  # noqa: E731
_body = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\ufeff\x00"), max_size=200).map(
    lambda s: s.lstrip("\n"))
_extra_key = st.from_regex(r"x_[a-z]{1,8}", fullmatch=True)
_extra_value = st.one_of(_text, st.integers(-10, 10**6), st.booleans(), st.lists(_text, max_size=3))


@st.composite
def records(draw, index=0):
    kind = draw(st.sampled_from(["fact", "preference", "decision", "lesson", "goal", "next_action"]))
    r = Record(kind=kind, link=f"{kind}_{index}", title=draw(_text), description=draw(_opt(_text)),
               body=draw(_body), created=draw(_opt(_when)), updated=draw(_opt(_when)), project=draw(_opt(_text)),
               tags=draw(_opt(st.lists(_text, max_size=3))), aliases=draw(_opt(st.lists(_text, max_size=3))))
    if draw(st.booleans()):
        r.origin = Origin(tool=draw(_opt(_text)), session_id=draw(_opt(_text)), machine_id=draw(_opt(_text)))
    if kind == "fact":
        r.source_text = draw(_opt(_text))
    elif kind == "preference":
        r.scope = draw(_opt(st.sampled_from(["global", "project"])))
    elif kind == "decision":
        r.date, r.why, r.rejected = draw(_opt(_when)), draw(_opt(_text)), draw(_opt(_text))
        if draw(st.booleans()):
            r.lifecycle = Lifecycle("hidden", draw(_when))
        if draw(st.booleans()):
            r.edges = [Edge("superseded_by", draw(_text))]
            if r.lifecycle.state == "active":
                r.lifecycle = Lifecycle("superseded")
    elif kind == "lesson":
        r.trigger, r.how_to_apply = draw(_text), draw(_text)
        r.fired_count, r.last_fired = draw(_opt(st.integers(0, 1000))), draw(_opt(_datetime))
    elif kind == "goal":
        r.set_on = draw(_opt(_when))
        if draw(st.booleans()):
            r.lifecycle = Lifecycle("done", draw(_when))
    else:
        r.added, r.machine_id = draw(_when), draw(_opt(_text))
        if draw(st.booleans()):
            r.lifecycle = Lifecycle("done", draw(_when))
    r.extra = draw(st.dictionaries(_extra_key, _extra_value, max_size=3))
    return r


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rs=st.lists(records(), min_size=1, max_size=4))
def test_written_records_read_back_as_the_same_model(rs, tmp_path_factory):
    for i, r in enumerate(rs):
        r.link = f"{r.kind}_{i}"
    files = memoir.write(Store(dialect="code", records=rs))
    root = tmp_path_factory.mktemp("store")
    for path, data in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(data)
        assert entry_errors(data, path) == [], f"{path} is valid memoir"
    back = sorted(memoir.read(root).records, key=lambda r: r.link)
    assert [meaning(r) for r in back] == [meaning(r) for r in sorted(rs, key=lambda r: r.link)]
