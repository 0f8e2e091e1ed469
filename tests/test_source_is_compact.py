"""A record's Source: held by every record read to the end of a conversion, so it keeps no ``__dict__``."""

from __future__ import annotations

import copy
import pickle

from memconv.model import Source


class _Refusing:
    """A loader that must not be called: the bytes are on disk, and nothing asked for them."""

    size = 3

    def __call__(self) -> bytes:
        raise AssertionError("the file was read again")


def test_a_source_has_no_instance_dict():
    # Its __dict__ was 200 of the ~300 bytes each record read held for its source (docs/performance.md).
    assert not hasattr(Source(dialect="claude", path="a.md"), "__dict__")


def test_a_replaced_source_shares_bytes_kept_on_disk_without_reading_them():
    source = Source(dialect="claude", path="a.md", version=1, raw=b"abc", fingerprint="f", layout=("x",))
    source.keep_on_disk(_Refusing())
    moved = source.replaced(path="b.md")
    assert (moved.path, source.path) == ("b.md", "a.md")
    assert (moved.dialect, moved.version, moved.fingerprint, moved.layout) == ("claude", 1, "f", ("x",))
    assert moved.has_raw and moved.size == 3 and moved.raw_in_memory is None


def test_a_source_with_its_bytes_survives_a_copy_and_a_pickle():
    source = Source(dialect="memoir", path="m.md", version="0.1.2", raw=b"---\n", fingerprint="f")
    for again in (copy.copy(source), copy.deepcopy(source), pickle.loads(pickle.dumps(source))):
        assert again == source and again is not source
        assert again.raw == b"---\n"
    assert source != Source(dialect="memoir", path="m.md", version="0.1.2", raw=b"--\n", fingerprint="f")
    assert source.replaced(raw=b"other").raw == b"other" and source.raw == b"---\n"


def test_bytes_kept_on_disk_are_known_by_their_size_and_digest_in_one_value(tmp_path):
    # An int and 32 hex digits took 111 bytes of every record read (docs/performance.md, "(thirty-fifth)").
    import pytest

    from memconv import fs
    from memconv.errors import StoreError

    (tmp_path / "a.md").write_bytes(b"one memory\n")
    on_disk = fs.OnDisk(str(tmp_path), "a.md", b"one memory\n")
    assert on_disk.__slots__ == ("root", "path", "check") and len(on_disk.check) == 24
    assert on_disk.size == 11 and on_disk() == b"one memory\n" and on_disk.holds(b"one memory\n")
    again = pickle.loads(pickle.dumps(on_disk))  # as a --jobs worker is given it
    assert (again.root, again.path, again.check) == (on_disk.root, on_disk.path, on_disk.check)
    fs.OnDisk._last = None
    for edited in (b"one memorY\n", b"one memory\n\n", b"one memor\n"):  # the same size, longer, shorter
        assert not on_disk.holds(edited)
        (tmp_path / "a.md").write_bytes(edited)
        with pytest.raises(StoreError, match="a.md: changed since memconv read it"):
            on_disk()
        with pytest.raises(StoreError, match="a.md: changed since memconv read it"):
            b"".join(on_disk.pieces(size=4))
