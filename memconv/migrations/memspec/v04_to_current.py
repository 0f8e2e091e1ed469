"""memspec v0.3/v0.4 → current: put the file where current memspec keeps it, and give it a ``check_by``.

Relocation follows memspec's migrator: a superseded or retired record goes to
``archive/``; an observation to ``observations/`` (an observation already in a
dated ``observations/YYYY-MM-DD/`` folder stays there, as memspec leaves it);
an active claim to ``memory/<type>s/``, or ``memory/operator/<type>s/`` when its
trust tier is operator (v0.4 tier segregation).

``check_by`` is required by every memspec since v0.3. A legacy record with no
``decay_after`` gets memspec's default review window from ``created`` (fact 90
days, decision 180, procedure 90; an observation its ``expires``), and the
report says so. Nothing else changes: the fields added after v0.4 are optional.
"""

from __future__ import annotations

from .fields import default_check_by, implied_path, place

DESCRIPTION = "memspec v0.3/v0.4 → current: moved the file to the folder its state, kind and tier imply"


def step(draft):
    values = dict(draft.values)
    changes = []
    if "check_by" not in values:
        default = default_check_by(values)
        if default is None:
            values = place(values, "check_by", "never")
            changes.append("check_by: never (absent, and created is not a date to count a review window from)")
        else:
            values = place(values, "check_by", default)
            changes.append(f"check_by: {default} (absent; memspec's default review window from created)")
    target = implied_path(values, draft.path, draft.operators)
    if target != draft.path:
        changes.append(f"relocated {draft.path} → {target}")
    return draft.changed(values, *changes, path=target)
