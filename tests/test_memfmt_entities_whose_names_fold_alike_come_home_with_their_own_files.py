"""Two memfmt entities whose names differ only in case or Unicode form (legal on Linux) come home in their own files.

memfmt numbers a name that folds to one taken (``Redis (2).md``). A record converted away and back is named as it
was at home (``Occasion.home``); claude's and memoir's writers keep that name, memfmt's numbered it like a record
arriving from elsewhere: ``Redis.md`` came home as ``Redis (2).md`` (and the index named that), a file renamed by a
round trip. Now it keeps the name, and says the clash (docs/memfmt.md).
"""

from __future__ import annotations

import pytest

from .conftest import round_trip, tree


def _entity(name: str, fact: str) -> bytes:
    return f"---\nmemfmt_type: entity\nentity_type: tool\n---\n\n# {name}\n\n## Facts\n\n- {fact}\n".encode()


_CASE = {"memory/entities/Redis.md": _entity("Redis", "upper"), "memory/entities/redis.md": _entity("redis", "lower")}
_FORM = {"memory/entities/Caf\u00e9.md": _entity("Caf\u00e9", "composed"),
         "memory/entities/Cafe\u0301.md": _entity("Cafe\u0301", "decomposed")}


@pytest.mark.parametrize("files", [_CASE, _FORM], ids=["case", "unicode-form"])
@pytest.mark.parametrize("away", ["claude", "memoir", "memspec"])
def test_memfmt_entities_whose_names_fold_alike_come_home_as_they_were(runner, tmp_path, files, away):
    _, back = round_trip(runner, tmp_path, files, "memfmt", away)
    assert tree(tmp_path / "back") == tree(tmp_path / "in")
    assert "(2)" not in back.output, "no file is said to be numbered"
    assert "only in case or Unicode normalisation: kept as it is" in back.output, "the clash is still said"
