"""Step 1, restore: records that carry a ``memconv`` carry are put back the way they were, native edits winning."""

from __future__ import annotations

from typing import Any

from .. import dialects
from ..dialects import fold
from ..errors import ReadError
from ..markdown import link_targets, rewrite_links
from ..model import ForeignFile, IndexFile, Packed, Record, Store, clone, fingerprint, unedited, unpacked
from ..report import FileReport
from ..text import flat, printable
from . import carry as carrying
from . import format_patch, native as renderings, native_form, notes, readable, transforms
from .carry import KEY, Carry
from .carry_checks import link_names_a_file
from .codec import field_type, from_json
from .conversion import Conversion, edits_said
from .mapping import EDGE_TYPES, TARGET_KIND, edge_types, native_text
from .naming import home_link, native_link, rename_links, safe_link
from .read_back import one_line_per_key, reread
from .slots import get_carry, strip_carry
from .store_facts import (folder_fact_read, folder_facts, holds_anchors, owner_can_write, self_carried,
                          where_from, witness_fields)


def restore(store: Store) -> tuple[Store, Conversion]:
    """Put records that came from another dialect back the way they were."""
    out = Store(dialect=store.dialect, indexes=list(store.indexes), quarantined=list(store.quarantined),
                migrations=list(store.migrations), warnings=list(store.warnings), meta=dict(store.meta),
                working_set=store.working_set)
    report = Conversion(store=out)
    pending: list[tuple[Record, Carry | None]] = []
    restored: list[tuple[Record, Record, carrying.Applied]] = []
    carries: list[Carry] = []
    noted: list[tuple[Record, str, dict[str, Any], None]] = []
    #: A bare file's path → its carry and the note it is in; taken out as a record uses it: one left is said.
    sidecars: dict[str, tuple[str, ForeignFile]] = {}
    #: Inline bullets retracted in this dialect: taken out of their restored index.
    withdrawn: list[dict[str, Any]] = []
    #: (index path, section heading, bullet number) of every bullet rendering found, and the paths of
    #: indexes whose words had one: a rendering deleted in this dialect is then told.
    rendered: set[tuple] = set()
    #: id(home) → its body edited in this dialect, mapped home, before readable.unshow took out the lines it knows:
    #: what the target holds now, for a line deleted there (readable.take_deleted_out).
    edited_bodies: dict[int, str] = {}
    #: What each note or carried file restored so far restores (a path, the working set, the store's facts, a bare
    #: file's carry) → the file it came from: a second claim is kept as a file, said, never one over the other (a
    #: crafted copy in the old memconv/ folder replaced the real one in silence).
    claimed: dict[str, str] = {}
    #: The note the working set is restored from, and whether its rendering was read: one deleted there is told.
    ws_note: str | None = None
    ws_rendered = False

    def second(what: str, foreign: ForeignFile) -> bool:
        first = claimed.setdefault(what, foreign.path)
        if first == foreign.path:
            return False
        report.warnings.append(f"{foreign.path}: {first} restores {what} already; kept as a file, not restored")
        out.foreign.append(foreign)
        return True

    for foreign in store.foreign:
        try:
            found = notes.read(foreign)
        except ValueError as exc:
            said = str(exc)
            report.warnings.append(said if said.startswith(foreign.path) else
                                   f"{foreign.path}: a memconv note memconv cannot use: {said}; "
                                   "kept as a file, not restored")
            found = None
        if found is not None and found[0] == "sidecar":
            if not second(f"the carry of {found[1][0]}", foreign):  # (a second sidecar replaced the first in silence)
                sidecars[found[1][0]] = (found[1][1], foreign)
            continue
        carried = notes.carried_file_path(foreign.path)
        if carried is not None:
            if second(carried[1], foreign):
                continue
            file = ForeignFile(carried[1], foreign.raw, foreign.why)
            report.owners[id(file)] = carried[0]
            out.foreign.append(file)
        elif found is None:
            out.foreign.append(foreign)
        elif found[0] == "record":
            record, owner, patch = found[1]
            report.owners[id(record)] = owner
            if patch is not None:
                noted.append((record, owner, patch, None))  # (no record as it was: its file is its note's)
            out.records.append(record)
        elif found[0] == "working_set":
            if second("the working set", foreign):
                continue
            document, patch, edited = found[1]
            out.working_set = format_patch.restore_working_set(document, patch)
            ws_note = foreign.path
            if edited:
                report.warnings.append(f"{foreign.path} was edited in {store.dialect}; the working set is restored "
                                       "from its carried copy, and the edits to the rendering are not applied "
                                       "(counted dropped)")
                # Its lines show the session as the rendering's do: an edit of them is counted as one of those is.
                report.records.append(FileReport(source=foreign.path, source_kind="note", target="session.json",
                                                 target_kind="working_set", status="kept", dropped=[EDITS]))
        elif not second("the store's facts", foreign):
            _restore_store(out, found[1], store, foreign.path, report.warnings, report.members)
    for record in store.records:
        if record.__class__ is Packed and not sidecars:  # held packed: it wears no carry (forward.held)
            pending.append((record, None))
            continue
        raw = get_carry(record)
        if raw is None and record.source is not None:
            side = sidecars.pop(record.source.path, None)
            if side is not None:
                raw = side[0]
                record = unpacked(record)  # restored: changed, and known by its identity from now on
                if notes.sidecar_holds_more(side[1], record.source.path, raw):
                    # A line a person wrote into memconv's note: the carry restores the file, the note is kept too.
                    report.warnings.append(f"{side[1].path}: the carry of {record.source.path} holds more than "
                                           "memconv's carry: restored, and the note kept as a file")
                    out.foreign.append(side[1])
        if raw is None:
            pending.append((record, None))
            continue
        try:
            carry = Carry.loads(raw)
        except ValueError as exc:
            # Not applied, and not passed on: the record is what the target shows.
            report.warnings.append(f"{where_from(record)}: {exc}; the carry is ignored and the record "
                                   "converted as it stands")
            record = clone(record, keep_source=True)
            strip_carry(record)
            pending.append((record, None))
            continue
        pending.append((record, carry))
    if sidecars:
        _unused_sidecars(sidecars, store, out, report.warnings)
    untouched: list[Record] = []
    for record, carry in pending:
        if carry is None:
            untouched.append(record)
            continue
        if store.indexes:
            # As the folder its index is in says it, by the link it names: every record that wears a carry, the working
            # set's rendering and a rendering its index says again too (a line to one is no word of the index's own).
            report.read_as[record.link] = record
        if carry.owner == store.dialect and set(carry.fields) <= self_carried() and not carry.payload:
            # A record of this dialect carrying what another dialect's tool added to it (a
            # verification in memspec): the fields go back on it; it is still this dialect's own.
            own = clone(record, keep_source=True)
            strip_carry(own)
            lived = own.lifecycle  # as home's file says it now (a decision hidden there since)
            carrying.apply(own, carry)
            if "lifecycle" in carry.fields:
                # Only its reason is carried, on the line that shows it: the line, as edited, is it; the state is
                # home's own (the carried one put a decision hidden in memoir back to active, with 0 dropped).
                own.lifecycle = lived
                readable.reason_back(own, store.dialect)
            untouched.append(own)
            continue
        if renderings.WORKING_SET in carry.payload and ws_note is None:
            # Its mark says a note restores it, but none did (the note deleted, never copied): its lines are the
            # only home of the session's words, so it is what the target shows, a record (docs/conversion.md).
            report.warnings.append(f"{where_from(record)}: the working set's rendering, but no memconv note holds "
                                   "the working set it renders; converted as it stands, a record of its own")
            record = clone(record, keep_source=True)
            strip_carry(record)
            untouched.append(record)
            continue
        if renderings.WORKING_SET in carry.payload:
            # A rendering of the working set, which its note restores exactly: not a record of its own.
            ws_rendered = True
            report.elsewhere[record.link] = "the working set's rendering, restored as the working set (session state)"
            unread = record.unread or []  # lines its reader does not read
            edited = renderings.digest(record) != carry.payload[renderings.WORKING_SET] or bool(unread)
            if edited:
                report.warnings.append(f"{where_from(record)}: the working set's rendering was edited in {store.dialect}; "
                                       "the working set is restored from its carried copy, and the edits are not "
                                       "applied (counted dropped)")
            generated = (renderings.working_set_record(out.working_set, store.dialect)
                         if out.working_set is not None else None)
            witnessed = _added_there(record, store.dialect, generated)
            if store.indexes and generated is not None:
                # Its line in the index is memconv's as memconv wrote the rendering (its name, its description), not
                # as its file says now: an edit there is counted dropped below, and no word of the index's own.
                report.read_as[record.link] = generated
            changed = [n for n in _rendering_fields_edited(record, generated, store.dialect) if n not in witnessed]
            if changed:
                report.warnings.append(f"{where_from(record)}: the working set's rendering had its "
                                       f"{', '.join(changed)} edited in {store.dialect}; the working set has no place "
                                       "for them: dropped")
            # Retracted or archived there (memspec's ``supersede``, with the user's reason): not applied, as a
            # deletion there is not, and counted as it is (docs/conversion.md).
            retired = ["lifecycle"] if record.lifecycle.state != "active" else []
            if retired:
                report.warnings.append(f"{where_from(record)}: the working set's rendering is "
                                       f"{record.lifecycle.state} in {store.dialect}; the working set is session "
                                       "state, restored as it was (counted dropped)")
            if witnessed:
                report.warnings.append(f"{where_from(record)}: the working set's rendering holds {', '.join(witnessed)} "
                                       f"from {store.dialect}; the working set has no place for them: dropped")
            if witnessed or changed or edited or retired:
                # An edit of its lines is the target user's text, which the way home cannot apply: counted, so that
                # ``--fail-on-loss`` fails (a line of an unknown key's as any other; docs/conversion.md).
                report.records.append(_dropped_from_rendering(record, "session.json", "working_set",
                                                              witnessed + changed + retired + [EDITS] * edited))
            continue
        home = home_record(record, carry)
        # A labelled paragraph of the body's own that the way home read as a field home had none of (a decision's
        # **Why:** paragraph, read so of an episode): the body as read with it left where it was, for an edit.
        own = transforms.own_labels(home, carry.fields) if record.kind == "episode" else ()
        own_body = home_record(record, carry, own=own).body if own else None
        was_active = "lifecycle" not in carry.fields
        # The link the way back derives, exactly as at conversion time (before the carry):
        # a carried link then replaces it.
        home_link(home, carry.owner)
        derived = home.link
        # (edit detection sees the target's own link names)
        applied = carrying.apply(home, carry, described_apart=store.dialect in TARGET_KIND
                                 and _described_apart(native_text(store.dialect, record.kind)),
                                 holds=native_text(carry.owner, home.kind) if carry.owner in TARGET_KIND
                                 else frozenset(), own=own, own_body=own_body)
        if "steps" in applied.overridden and home.steps and isinstance(carry.fields.get("steps"), list) \
                and carry.owner in TARGET_KIND and "steps" in native_text(carry.owner, home.kind):
            # Its steps read from lines that say each one's text alone (Claude's **How to apply:** list): a step whose
            # line is as it was keeps what home's held beyond it (its runs, its needs and gives), as an edited one does.
            home.steps = readable.steps_kept(from_json(carry.fields["steps"], field_type("steps")), home.steps)
        if "body" in applied.overridden and "body" not in applied.carried and store.dialect in TARGET_KIND:
            # The edited body still holds what the target showed of the fields now restored. (A carried body
            # that an edit of another field was only added to, carry._keep_every_word, holds none of it.)
            edited_bodies[id(home)] = home.body
            readable.unshow(home, store.dialect, record.kind, applied.overridden, carry.fields.get("body"),
                            carry.owner)
            # A field unshow read from the edited body (a **Why:** line, the **How to apply:** section) is the
            # target's text now, not the carried copy: its links are named home below, as the body's are.
            applied.carried[:] = [n for n in applied.carried if n not in applied.overridden]
        if home.opaque and ("body" in applied.overridden or "title" in applied.overridden):
            # An entry kept whole (a bare Claude memory) whose ``# Title`` line the target showed as its name:
            # the edited body, read from the target, is without it; an edited name is that line's new text.
            # (fold_in, below, leaves opaque records be.)
            transforms.heading_back(home, carry.fields.get("body"))
        if carry.payload.get("derived") == ["trigger"]:
            _trigger_is_description(home, applied)
        if home.link != derived and link_names_a_file(carry.owner) and home.link \
                and not safe_link(home.link):
            report.warnings.append(f"{where_from(record)}: its carry names the link {home.link!r}, which would be "
                                   "written outside the store; the link is derived again")
            home.link = derived
        if applied.overridden:
            report.edited[id(home)] = list(applied.overridden)
        if home.lifecycle.state != "active" and (was_active or "lifecycle" in applied.overridden):
            # Retracted, retired… in this dialect since the conversion: the edit wins.
            report.state_edited[id(home)] = where_from(record)
        # Remember where it came from: converting it back there keeps its link and kind.
        home.source = None
        if not owner_can_write(home, carry.owner):
            # A carry of IN claims a dialect that cannot hold what it describes (crafted, or damaged):
            # not applied; the record is converted from what the target shows.
            report.warnings.append(f"{where_from(record)}: its carry says it came from {carry.owner}, which cannot "
                                   f"hold a {home.kind}; the carry is ignored and the record converted as it stands")
            plain = clone(record, keep_source=True)
            strip_carry(plain)
            untouched.append(plain)
            report.identities.append(home)  # named by id() above: held, as it is let go here
            continue
        report.owners[id(home)] = carry.owner
        unread = record.unread or []  # lines its reader does not read
        if unread:
            # Text written in the target where its reader does not read it: nothing of it is in the record, so it
            # cannot come home; counted, so that --fail-on-loss fails (docs/limits.md). Before, it was lost unsaid.
            report.lost.setdefault(id(home), []).append(UNREAD)
            report.warnings.append(_unread_said(record, unread, store.dialect, carry.owner))
            home.unread = None  # counted dropped: not shown further on either
        mark = carry.payload.get(renderings.INLINE)
        if mark is not None:
            # A rendering of an inline index bullet: the index, restored from its note, says it again.
            retracted = id(home) in report.state_edited
            ours = isinstance(mark, dict)  # else crafted: its record comes back as an entry
            where = mark.get("path") if ours else None
            words = ours and bool(mark.get(renderings.WORDS))  # the index's own words, not one bullet
            what = f"the words written in {where}" if words else f"an inline bullet of {where}"
            if ours:
                rendered.add((where, "words") if words else (where, mark.get("section"), mark.get("n")))
            same = ours and not retracted and renderings.digest(record) == mark.get("digest")
            emptied = ours and not retracted and not same and not _says_anything(record)
            if same or emptied:
                # Home as the index's text, no file: a record linking it is said (``forward._say_links_to_notes``).
                report.elsewhere[record.link] = f"{what}, which {where} says again (no file of its own)"
            if same:
                # Its words unchanged: the index says them again. What a tool of the target added (memspec's
                # verify) has no place in it; before, it made the bullet an entry of its own, twice said.
                added = sorted(set(applied.overridden) | set(_added_there(record, store.dialect))
                               | set(_held_there(home)) | {f"extra.{key}" for key in record.extra if key != KEY})
                if added:
                    report.warnings.append(f"{where_from(record)}: the rendering of {where} holds {', '.join(added)} "
                                           f"from {store.dialect}, and its words are unchanged; {where} has no place "
                                           "for the rest: dropped")
                if added or unread:  # (unread: said above)
                    report.records.append(_dropped_from_rendering(record, where, "inline",
                                                                  added + [UNREAD] * bool(unread)))
                report.identities.append(home)  # named by id() above: held, as it is let go here
                continue
            said = f"{what} were" if words else f"{what} was"
            if emptied:
                # Its text all taken out there, its file left (a name over nothing): as when the file is deleted, the
                # index says it again, and nothing is made of a name alone.
                report.warnings.append(f"{where_from(record)}: the text of {what} was taken out in {store.dialect}; "
                                       + _stays(where, words))
                report.identities.append(home)  # named by id() above: held, as it is let go here
                continue
            if ours and retracted:
                # Not live any more: they leave the index, the record is kept out of the live set.
                withdrawn.append(mark)
                report.warnings.append(f"{where_from(record)}: {said} {home.lifecycle.state} in {store.dialect}; "
                                       + (f"they are taken out of {where} and kept in a note" if words
                                          else f"it is taken out of {where}"))
            else:
                report.split_off.add(id(home))
                report.warnings.append(f"{where_from(record)}: {said} edited in {store.dialect}; "
                                       + (f"they come back as an entry of its own, and {where} as it was" if words
                                          else "it comes back as an entry of its own, and the bullet as it was"))
            carry.payload.pop("format", None)
        restored.append((record, home, applied))
        carries.append(carry)
    if ws_note is not None and not ws_rendered:
        report.records.extend(_deleted_working_set(out.working_set, ws_note, store.dialect, report.warnings))
    if rendered:
        homes = {r.link: r for r in [home for _, home, _ in restored] + untouched}
        report.warnings.extend(_deleted_renderings(out.indexes, rendered, store.dialect, homes))
    if withdrawn:
        out.indexes = [_withdraw(index, withdrawn, store) for index in out.indexes]
    rename = {record.link: home.link for record, home, _ in restored}
    if store.dialect in TARGET_KIND:
        # Text names a record by the link memconv gave it in this dialect, which its reader may
        # not use as the link (memfmt episodes are linked by file stem, written by name).
        for record, home, _ in restored:
            rename.setdefault(native_link(record, record.kind, store.dialect), home.link)
    for record in untouched:
        # Its links to restored records follow them home; its own link is the forward step's business.
        if rename and ("[[" in record.body or record.edges):
            read = unpacked(record)
            record = clone(read, keep_source=True)
            rename_links(record, rename)
            renamed = fingerprint(record) if unedited(read) else None
            if renamed is not None and renamed != read.source.fingerprint and read.source.dialect in TARGET_KIND \
                    and not format_patch.written_anew(read.source.dialect, read):
                # Renamed links are no edit of its own: a file its writer would not write anew (memspec 0.7.2's own
                # claim, no ``source_kind``) keeps its fingerprint (a new source; the one read is untouched), so it
                # gets its format patch and comes home as written; before, it came home rendered anew. One its writer
                # writes anew needs no patch: home, its links named back, it is written so again (forty-sixth
                # session; docs/conversion.md).
                record.source = record.source.replaced(fingerprint=renamed)
        out.records.append(record)
    formats = []
    unrename = {home.link: record.link for record, home, _ in reversed(restored)}
    #: The names the target's text writes them by, made when first asked (_shown_before).
    written: dict[str, str] = {}
    for (record, home, applied), carry in zip(restored, carries):
        rename_links(home, rename, keep=set(applied.carried))
        if "edges" in applied.overridden and store.dialect in TARGET_KIND:
            _keep_relations_shown(home, carry, store.dialect, record.kind, rewrite_links(record.body, rename)[0])
        if "facts" in applied.overridden and home.kind == "entity" and record.kind != "entity" \
                and store.dialect in TARGET_KIND:
            # (Its links named home first: its edges, which the Relations lines show, are.)
            there = transforms.join_paragraphs(list(home.facts or ()))  # what the target holds now
            said = rewrite_links(record.body, rename)[0]  # its lines as lines, their links named home
            for line in _unshow_facts(home, record, store.dialect, applied.overridden, carry.owner, said):
                report.warnings.append(f"{where_from(record)}: a line of its **Relations:** in {store.dialect} says no "
                                       f"relation ({flat(printable(line))!r}): it comes home as a fact")
            then = _shown_then(home, carry, applied.overridden, record.kind, store.dialect, unrename, "facts")
            if then is not None:
                # A labelled line deleted there (its **Entity type:**), as for a body (below).
                facts = from_json(carry.fields["facts"], field_type("facts"))
                readable.take_deleted_out(home, store.dialect, record.kind, then, there,
                                          transforms.join_paragraphs(list(facts or ())), applied.overridden,
                                          carry.owner)
            if home.facts == carry.fields.get("facts"):
                applied.overridden.remove("facts")  # what was edited was another field's line (its type)
            if applied.overridden:
                report.edited[id(home)] = list(applied.overridden)
            else:
                report.edited.pop(id(home), None)
        if id(home) in edited_bodies and carry.owner in TARGET_KIND and isinstance(carry.fields.get("body"), str) \
                and home.kind != "entity":
            # A labelled line (**Why:** …) deleted whole in the target, where it was shown: the user took the field
            # out. Told from a line never written by the body shown then (its links named as the target named them).
            then = _shown_then(home, carry, applied.overridden, record.kind, store.dialect, unrename)
            if then is not None and readable.take_deleted_out(home, store.dialect, record.kind, then,
                                                              edited_bodies[id(home)],
                                                              carry.fields["body"], applied.overridden, carry.owner):
                report.edited[id(home)] = list(applied.overridden)
            if then is not None:
                # What the target showed beside the body and the user left as it was: not the body's text.
                readable.take_leftovers_out(home, then, carry.fields["body"])
        if "preconditions" in applied.overridden and _holds_the_relations(home, store.dialect, record.kind,
                                                                          carry.owner):
            # Its **Relation:** lines among a memfmt procedure's preconditions, edited there: the edges they say now.
            readable.relations_listed_back(home, store.dialect, record.kind, applied.overridden,
                                           EDGE_TYPES[carry.owner])
            report.edited[id(home)] = list(applied.overridden)
        if id(home) in edited_bodies and _holds_the_relations(home, store.dialect, record.kind, carry.owner):
            # The Relations lines of edges home holds in keys, their links named home now as the edges' are: the
            # edges the block says now (a line taken out there takes its edge out; lines reordered, their order), by
            # the rule an entity's block is read home by. A line saying no edge home has a key for stays text.
            for line in readable.relations_back(home, store.dialect, record.kind, applied.overridden, home.body,
                                                EDGE_TYPES[carry.owner]):
                report.warnings.append(f"{where_from(record)}: a line of its **Relations:** in {store.dialect} says no "
                                       f"relation {carry.owner} has a key for ({flat(printable(line))!r}): it comes "
                                       f"home as text of its body")
            if "edges" in applied.overridden:
                report.edited[id(home)] = list(applied.overridden)
        if record.kind == "entity" and home.kind != "entity" and id(home) in edited_bodies \
                and isinstance(carry.fields.get("body"), str):
            # Its body was the entity's facts there, read home a paragraph each: the facts it had, as they were, are
            # written as their blocks were (a list's items, a fence's lines).
            home.body = transforms.blocks_back(home.body, carry.fields["body"])
        if record.kind == "episode" and home.kind != "episode" and id(home) in edited_bodies \
                and isinstance(carry.fields.get("body"), str):
            # Its body was the episode's context there, read home a paragraph a line: each paragraph it had, as it
            # was (a fence's lines in their fence).
            home.body = transforms.paragraphs_back(home.body, carry.fields["body"])
        if "body" in applied.overridden and ({"tags", "extra.tags"} & set(applied.carried)) \
                and carry.owner in TARGET_KIND and store.dialect in TARGET_KIND \
                and "tags" not in native_text(store.dialect, record.kind) \
                and not readable.shows_tags(record, store.dialect) \
                and _showed_tags(home, carry, record.kind, store.dialect, unrename):
            # The **Tags:** line (a memfmt entity's fact) taken out in the target, where it was the tags' one
            # place: the user took the tags out. A file the line was never written to keeps them.
            readable.take_tags_out(home, applied.overridden)
            report.edited[id(home)] = list(applied.overridden)
        if applied.overridden and carry.owner in TARGET_KIND:
            # An edit in a field home has no place for (a memfmt procedure's steps, home as a memoir
            # lesson) is written into the body, where home's user reads it; before, it was lost. (Its
            # links named home first: the body it goes into names them so.)
            counted = readable.uncounted(home)
            folded = readable.fold_in(home, carry.owner, applied.overridden,
                                      _shown_before(home, carry, applied.overridden, record.kind, store.dialect,
                                                    unrename, written, restored))
            for name in (n for n in counted if n in folded):
                # Written as lines that say their text, not their numbers: those are dropped, and counted so.
                report.lost.setdefault(id(home), []).append(name)
                report.warnings.append(f"{where_from(record)}: the counts of its {name} ({store.dialect}'s runs) "
                                       f"have no place in {carry.owner}: dropped")
        if "edges" not in applied.carried and carry.owner in TARGET_KIND and home.edges \
                and readable.fold_in_relations(home, carry.owner):
            # Related in the target to another record: home has no key for that edge, its body shows it.
            if "edges" not in applied.overridden:
                applied.overridden.append("edges")
            report.edited[id(home)] = list(applied.overridden)
        if home.anchors and "anchors" not in applied.carried and carry.owner in TARGET_KIND \
                and not holds_anchors(carry.owner):
            # Pinned to a file in the target (memspec's anchor): home has no key for it, its body shows it;
            # where nothing of home shows it (an entry kept whole), it is dropped, and counted so.
            if readable.fold_in_anchors(home, carry.owner):
                if "anchors" not in applied.overridden:
                    applied.overridden.append("anchors")
                report.edited[id(home)] = list(applied.overridden)
            else:
                home.anchors = None
                report.lost.setdefault(id(home), []).append("anchors")
                report.warnings.append(f"{where_from(record)}: anchors added in {store.dialect}; {carry.owner} "
                                       "keeps this record whole and has no place for them: dropped")
        added = [n for n in readable.unsaid_text(home, carry.owner) if n not in applied.carried
                 and n not in applied.overridden] if carry.owner in TARGET_KIND else []
        if added and readable.fold_in(home, carry.owner, added):
            # Text added in the target that home's kind has no key for (an alias added in memoir, a memfmt entity's
            # ## Knowledge entry): its body shows it, as show writes it; else it is counted dropped
            # (forward._count_unwritten).
            applied.overridden.extend(n for n in added if n not in applied.overridden)
            report.edited[id(home)] = list(applied.overridden)
        if "body" not in applied.overridden and store.dialect in TARGET_KIND and home.how_to_apply \
                and readable.HOW_TO_APPLY.search(home.body):
            read = clone(record)
            rename_links(read, rename)
            if readable.land_how_to_apply(home, carry.owner, read, store.dialect) \
                    and "how_to_apply" not in applied.overridden:
                applied.overridden.append("how_to_apply")
                report.edited[id(home)] = list(applied.overridden)
        out.records.append(home)
        patch = carry.payload.get("format")
        gone = carry.fields.get("unread") if home.unread is None else None
        if gone and isinstance(gone, list):
            # Its text outside the format, edited or taken out in the target (readable.unshow): the patch does
            # not write the old lines back beside the edit, or in place of the deletion.
            patch = format_patch.without(patch, gone) if isinstance(patch, dict) else None
            if UNREAD not in applied.overridden:
                applied.overridden.append(UNREAD)
            report.edited[id(home)] = list(applied.overridden)
        if patch is not None:
            formats.append((home, carry.owner, patch, _as_it_was(home, carry, applied.overridden)))
        if applied.overridden:
            report.edits_warned[id(home)] = (where_from(record), store.dialect, list(applied.overridden))
            report.warnings.append(edits_said(*report.edits_warned[id(home)]))
    report.warnings.extend(_restore_sources(formats + noted, out.records, report.owners))
    return out, report


def _keep_relations_shown(home: Record, carry: Carry, target: str, kind: str, said: str) -> None:
    """The carried edges ``target`` has no key for (memfmt's ``works_with`` in memspec) whose ``**Relations:**`` line
    is still in its body (``said``: the body as ``target`` holds it, its links named home), put back before the edges
    edited there: that edit was of the edges ``target`` holds in keys (memspec's ``relate``), not of these, which it
    showed as lines of the body (a line edited or added there is read by ``readable.relations_back``). Before, the
    edit won over every carried edge and these were lost with "0 dropped"; a line taken out there takes its edge."""
    carried = carry.fields.get("edges")
    if not isinstance(carried, list):
        return
    lines = {line.rstrip() for line in said.split("\n")}
    shown = [e for e in readable.unsaid(from_json(carried, field_type("edges")), edge_types(target, kind))
             if e not in home.edges and readable.relation_line(e) in lines]
    if shown:
        home.edges = shown + home.edges


def _added_there(record: Record, dialect: str, made: Record | None = None) -> list[str]:
    """What the dialect read, or a tool of it, added to a rendering memconv wrote there (an inline bullet's
    record, the working set's), which the way home restores from its note: a verification (memspec's ``verify``,
    ``migrate --apply``), anchors, edges. The rendering's source has no place for them. A value the dialect's writer
    gives the rendering itself (memspec's ``verified_with`` as its ``migrate`` infers it) was not added there: the
    rendering as memconv made it (``made``; else as read) is written without the field and read again to tell."""
    added = [n for n in witness_fields() if getattr(record, n) is not None and (n != "ext" or set(record.ext) - {KEY})]
    own = _written_with_none(made or record, dialect, added) if added else None
    added = [n for n in added if own is None or n == "ext" or getattr(own, n) != getattr(record, n)]
    return added + [n for n in ("anchors", "edges") if getattr(record, n)]


def _written_with_none(record: Record, dialect: str, fields: list[str]) -> Record | None:
    """``record`` as ``dialect``'s writer writes it without ``fields``, read again: what that writer fills in."""
    bare = clone(record)
    strip_carry(bare)
    for name in fields:
        setattr(bare, name, None)
    rendered = format_patch.render_alone(dialect, bare)
    return next(iter(reread([(dialect, *rendered)]).values()), None) if rendered is not None else None


#: What a bullet's record holds (``native.inline_records``): its kind, link, title and body, and what is said on its
#: own (a state changed there; an unread line, said and counted above).
_BULLET_FIELDS = frozenset({"kind", "link", "title", "body", "lifecycle", "unread"})
#: The fields :func:`_held_there` looks at, and a bullet's record as it holds them (none).
_HELD_FIELDS = tuple(f for f in carrying.FIELDS if f not in _BULLET_FIELDS)
_BARE = Record(kind="fact", link="")


def _held_there(home: Record) -> list[str]:
    """The fields of ``home`` (a rendering of an inline bullet, mapped home) that the bullet does not hold: written
    there into a key or section the target has (a memfmt entity's ``## Knowledge`` or ``entity_type``, memoir's
    ``tags:``). The bullet comes home from the index's note; before, such a field was lost with "0 dropped"
    (2026-12-07, docs/conversion.md). An unedited rendering comes home with none."""
    return [n for n in _HELD_FIELDS if getattr(home, n) != getattr(_BARE, n)]


#: The fields of the working set's rendering that :func:`_rendering_fields_edited` looks at: all but what its digest
#: covers (its text), its name, its state (said on its own), and what :func:`_added_there` lists.
_RENDERING_FIELDS = tuple(f for f in carrying.FIELDS if f not in {"link", "title", "body", "facts", "lifecycle",
                                                                  "anchors", "edges", "unread"})


def _rendering_fields_edited(record: Record, generated: Record | None, dialect: str) -> list[str]:
    """The fields of the working set's rendering as ``dialect`` read it that are not what its writer gives it
    (``generated``: ``native.working_set_record`` of the working set restored from its note): a value memconv filled in
    there (memspec's ``source: memconv-import``, its ``tags: []``), edited. The rendering's digest covers its text
    alone; before, such an edit was dropped with nothing said (found by fuzzing frontmatter values, 2026-12-05)."""
    if generated is None:
        return []
    expected = clone(generated)  # (``generated`` is also the rendering the index's line is asked of: left as it is)
    if expected.kind != record.kind:
        return ["kind"]  # its type edited there
    expected.link, expected.title = record.link, record.title
    if expected.created is None:
        expected.created = record.created  # stamped by the writer from the whole store, which one record is not
    rendered = format_patch.render_alone(dialect, expected)
    again = reread([(dialect, *rendered)]) if rendered is not None else {}
    written = next(iter(again.values()), None)
    if written is None:
        return []
    read = clone(record)
    strip_carry(read)  # (``written`` is memconv's rendering, which wears none)
    witness = witness_fields()
    return [n for n in _RENDERING_FIELDS
            if n not in witness and (getattr(read, n) or None) != (getattr(written, n) or None)] \
        + [f"extra.{k}" for k in sorted(set(read.extra) | set(written.extra))
           if read.extra.get(k) != written.extra.get(k)]


#: What a report lists dropped for a rendering of the working set edited in the target: its edits.
EDITS = "edits"
#: What a report lists dropped for a record whose file in the target holds text its reader does not read.
UNREAD = readable.UNREAD_LABEL.lower()


def _unread_said(record: Record, unread: list[str], dialect: str, owner: str) -> str:
    first = flat(printable(unread[0]))
    first = first if len(first) <= 80 else first[:79] + "…"
    return (f"{where_from(record)}: {len(unread)} line(s) of it are text {dialect} does not read (\"{first}\"), "
            f"which cannot come home to {owner}: dropped; write it where {dialect} reads it (a fact as \"- …\") "
            "and convert again")


def _deleted_working_set(working_set, note: str, dialect: str, warnings: list[str]) -> list[FileReport]:
    """The report of the working set restored from ``note`` whose rendering is not in ``dialect`` any more (its
    record deleted there), empty when it had none to show: every line of it, which the session says again, counted
    dropped as an edit of its lines is, so that ``--fail-on-loss`` fails. Before, nothing was said
    (docs/conversion.md)."""
    shown = renderings.working_set_record(working_set, dialect) if working_set is not None else None
    if shown is None:
        return []
    warnings.append(f"{note}: the working set's rendering is not in {dialect} any more; the working set is restored "
                    "from this note as it was, and the deletion is not applied (counted dropped): take its items out "
                    "of session.json if they should go")
    return [FileReport(source=note, source_kind=shown.kind, target="session.json", target_kind="working_set",
                       status="kept", dropped=[EDITS])]


def _dropped_from_rendering(record: Record, where: str, kind: str, dropped: list[str]) -> FileReport:
    """The report of a rendering home again as the bullet (or the working set) it was, without ``dropped``:
    counted, so that ``--fail-on-loss`` fails. Before, only a warning said so, and the counts said 0 dropped."""
    return FileReport(source=where_from(record), source_kind=record.kind, target=where, target_kind=kind,
                      status="kept", dropped=sorted(dropped))


def _unshow_facts(home: Record, record: Record, target: str, edited: list[str], owner: str,
                  said: str) -> list[str]:
    """An entity whose facts were edited in ``target``, where it was ``record`` (a fact-like record): its facts, read
    home paragraph by paragraph (``transforms.to_entity``), without the paragraphs :func:`readable.show` wrote
    there for its other fields (its ``**Entity type:**`` line, its ``**Relations:**``), an edited type line the
    entity's new type, an edited relations block its relations (:func:`readable.relations_back`; ``said``: the body
    as the target holds it, its links named home). Before, every such paragraph came home as one more fact
    (2026-12-05, docs/conversion.md). Returns the lines of the relations block that say no relation: facts now."""
    # Its knowledge, shown as a block of lines: read from the body as the target holds it, before it is read flat.
    taken = readable.knowledge_back(home, record.body, edited)
    facts = [f for f in home.facts or [] if f not in taken]
    lead = facts[:1] if record.description else []  # the target's description, its first fact (to_entity)
    home.facts, home.body = None, transforms.join_paragraphs(facts[len(lead):])
    readable.unshow(home, target, record.kind, edited, None, owner)
    # An entity holds every edge in its relations.
    unread = readable.relations_back(home, target, record.kind, edited, said)
    home.facts, home.body = lead + transforms.paragraphs(home.body) or None, ""
    return unread


def _trigger_is_description(home: Record, applied: carrying.Applied) -> None:
    """A trigger its reader took from the description (the carry's ``derived``; a Claude feedback memory has no
    key of its own for it), edited in the target while the description came home as carried: the edit is the
    description's. Before, it came home as a trigger key the file never had, beside the old description."""
    if "description" in applied.carried and isinstance(home.trigger, str) and home.trigger.strip() \
            and home.trigger != home.description:
        home.description = home.trigger
        if "description" not in applied.overridden:
            applied.overridden.append("description")
    elif "description" in applied.overridden and "trigger" not in applied.overridden \
            and isinstance(home.description, str):
        # The description edited (memspec's first paragraph, readable._lead_edited), the trigger not: the
        # trigger is still the description's, not a key of the old text the file never had.
        home.trigger = home.description


def _showed_tags(home: Record, carry: Carry, kind: str, target: str, unrename: dict[str, str]) -> bool:
    """Whether ``target`` showed ``home``'s tags on a ``**Tags:**`` line when it was converted: its rendering
    then (``home`` with its carried body, in ``kind``) has the line, and its body read home is the one whose
    digest the carry holds (``unrename``: the target's link names, which the digest is of). A file written
    before the line was (docs/conversion.md, tags), or a carry that does not say, is not taken for one."""
    body = carry.fields.get("body")
    if not isinstance(body, str) or "body" not in carry.native:
        return False
    old = clone(home)
    old.body = body
    native = _rendered_then(old, carry, kind, target, unrename, "body")
    return native is not None and readable.shows_tags(native, target)


def _as_it_was(home: Record, carry: Carry, edited: list[str]) -> Record | None:
    """``home`` with the values its carry held of the fields edited in the target: the record its format patch was
    made against, where the carry holds each (:func:`format_patch.rebuild_moved` checks it by the patch's digest);
    None when nothing was edited."""
    # (A field the target holds too has no old value in the carry: the digest then tells.)
    return _carried_copy(home, carry, edited) if edited else None


def _carried_copy(home: Record, carry: Carry, names, extras: bool = True) -> Record:
    """A copy of ``home`` with the values its carry holds of ``names`` (of its unknown keys too, ``extras``). No guard:
    the carried fields were checked whole by Carry.loads (types and meanings), so the copy is a record forward
    conversion takes as it is; a crafted carry's kind or fields only change what is compared with it."""
    old = clone(home)
    for name in names:
        if name in carry.fields and (extras or not name.startswith("extra.")):
            carrying.put(old, name, carry.fields[name])
    return old


def _rendered_then(old: Record, carry: Carry, kind: str, target: str, unrename: dict[str, str],
                   field: str) -> Record | None:
    """``old`` in ``target``'s words, as ``kind``, when the digest the carry holds of ``field`` says that is what the
    target showed (``unrename``: the target's link names, which the digest is of); else None."""
    native = native_form.in_target_words(old, kind, old.link, target)
    named = clone(native)
    rename_links(named, unrename)
    said = getattr(transforms.backward(named, kind, old.kind, carry.owner), field)
    return native if carrying.field_digest(said) == carry.native[field] else None


def _holds_the_relations(home: Record, target: str, kind: str, owner: str) -> bool:
    """Whether every edge of ``home`` that ``target`` showed as a ``**Relations:**`` line (it has no key for it) has a
    key of its own at home (``owner``'s ``EDGE_TYPES``): the lines are then the target's rendering of those keys, not
    text of the body (a memspec claim's ``supersedes`` shown in Claude). ``kind``: ``home``'s kind in ``target`` (a
    memfmt procedure's or episode's: ``mapping.edge_types``)."""
    shown = readable.unsaid(home.edges, edge_types(target, kind)) if target in TARGET_KIND else []
    held = EDGE_TYPES[owner] if owner in TARGET_KIND else frozenset()
    return bool(shown) and (held is None or all(e.type in held and e.direction == "out" for e in shown))


def _shown_then(home: Record, carry: Carry, edited: list[str], kind: str, target: str,
                unrename: dict[str, str], field: str = "body") -> str | None:
    """The body ``target`` showed of ``home`` when it was converted, mapped home (``field``: where home holds it, a
    memfmt entity's facts, a paragraph each): its rendering then (``home`` with its carried fields, in ``kind``), when
    the digest the carry holds of that field says it is what the target showed (``unrename``: the target's link
    names, which the digest is of); None when the carry does not say, or the rendering differs (a file another
    memconv wrote, showing other lines; an unknown key edited beside it)."""
    if field not in carry.fields or field not in carry.native:
        return None
    native = _rendered_then(_carried_copy(home, carry, {*edited, field}, extras=False), carry, kind, target,
                            unrename, field)
    if native is None:
        return None
    said = getattr(transforms.backward(native, kind, home.kind, carry.owner), field)
    return said if isinstance(said, str) else transforms.join_paragraphs(list(said or ()))


def _shown_before(home: Record, carry: Carry, edited: list[str], kind: str, target: str,
                  unrename: dict[str, str], written: dict[str, str], restored: list) -> dict[str, Any] | None:
    """The steps and preconditions ``target`` showed of ``home`` before the edit (its edited fields as the carry
    has them), when the carry's digests say they are what the target showed (``unrename``: the target's link
    names, which the digests are of: its links, else the names its text writes them by, ``written``, made of the
    ``restored`` records when first asked: a memfmt episode is linked by its file's stem, written by its name);
    and its how_to_apply then."""
    lists = [n for n in ("steps", "preconditions") if n in edited and n in carry.native]
    if not lists:
        return None
    old = _carried_copy(home, carry, edited, extras=False)
    native = native_form.in_target_words(old, kind, old.link, target)
    before: dict[str, Any] = {"how_to_apply": old.how_to_apply}
    for names in (unrename, written):
        if names is written and not written:
            if target not in TARGET_KIND:
                break
            written.update((back.link, native_link(read, read.kind, target)) for read, back, _ in reversed(restored))
        named = clone(native)
        rename_links(named, names)
        for name in lists:
            value = getattr(native, name)
            if name not in before and value is not None \
                    and carrying.field_digest(getattr(named, name)) == carry.native[name]:
                before[name] = value
        if all(name in before for name in lists):
            break
    return before


def _says_anything(record: Record) -> bool:
    """Whether ``record``, read from a rendering, holds any text but its name: a file whose lines were all taken out
    says none."""
    return any(isinstance(value, str) and value.strip() or isinstance(value, list) and value
               for value in (record.body, record.description, record.facts, record.steps, record.preconditions,
                             record.why, record.rejected, record.trigger, record.how_to_apply, record.outcome,
                             record.knowledge))


def _deleted_renderings(indexes: list, rendered: set[tuple], dialect: str, homes: dict[str, Record]) -> list[str]:
    """A warning for each bullet (and an index's words) whose rendering is gone from ``dialect``: deleted
    there, it is still in the index, which comes home from its note as it was. ``homes``: the records home
    again, by link (what their memories say of a link's hook, as at conversion), and by the link the index's
    dialect gives them (``native.resolved_in``)."""
    said = []
    pages = frozenset(index.path for index in indexes)
    by_dialect: dict[str, dict[str, Record]] = {}  # an index's dialect → the records home by the links it gives them
    for index in indexes:
        if not any(r[0] == index.path for r in rendered):
            continue  # no rendering of this index was read at all: nothing to tell a deletion from
        for section in index.sections:
            for n, bullet in enumerate(section.inline):
                if bullet.strip() and (index.path, section.heading, n) not in rendered:
                    said.append(f"{index.path}: the record of its bullet '{' '.join(bullet.split())[:60]}' is not in "
                                f"{dialect} any more; " + _stays(index.path, words=False))
        # (forty-sixth session) A memory the target held exactly (no carry) comes home under the index's dialect's
        # name for it (``user_style``, not memoir's ``preference_style``): the index's link to it names that memory.
        # (forty-seventh) So does a memory of a third dialect's (memoir's, carried claude → memoir → memspec).
        if (index.path, "words") not in rendered \
                and renderings.index_words(*renderings.resolved_in(index, homes, homes.values(), pages, by_dialect),
                                           pages):
            said.append(f"{index.path}: the record of the words written in it is not in {dialect} any more; "
                        + _stays(index.path, words=True))
    return said


def _stays(where: str, words: bool) -> str:
    """What the report says of an inline bullet of the index ``where`` (or its own ``words``) whose rendering is gone
    from the target, or holds no text any more: the index, which memconv never edits on its own, says it again."""
    return (f"they stay in {where}: take them out there if they should go" if words
            else f"the bullet stays in {where}: take it out there if it should go")


def _withdraw(index, marks: list[dict[str, Any]], store: Store):
    """``index`` without the inline bullets ``marks`` name (each by section heading and position), and
    without its own words when a mark names them."""
    source = index.source
    mine = [(m.get("section"), m.get("n")) for m in marks if m.get("path") == index.path and not m.get(renderings.WORDS)]
    words = any(m.get("path") == index.path and m.get(renderings.WORDS) for m in marks)
    if not (mine or words) or source is None or not source.has_raw \
            or source.dialect not in TARGET_KIND or dialects.declaration(source.dialect, "read_index") is None:
        return index
    present = {f"{r.link}.md" for r in store.records}
    layout = source.layout
    if layout is None:  # let go as it was read for another dialect (forward.unformatted_index): read from its bytes
        layout = dialects.get(source.dialect).read_index(source.raw, index.path, present).source.layout
    if not hasattr(layout, "items"):
        return index
    lines = source.raw.split(b"\n")
    drop, at = set(), 0
    for item in layout.items:
        size = len(item[3]) if item[0] == "inline" else 1
        if item[0] == "inline" and 0 <= item[1] < len(index.sections) \
                and (index.sections[item[1]].heading, item[2]) in mine:
            drop.update(range(at, at + size))
        elif item[0] == "text" and words and item[1].strip():
            drop.add(at)  # the index's own words (IndexFile.words)
        at += size
    if not drop or at != len(lines) - (1 if source.raw.endswith(b"\n") else 0):
        return index  # the layout does not match the bytes: keep the index as it was
    raw = b"\n".join(line for n, line in enumerate(lines) if n not in drop)
    return dialects.get(source.dialect).read_index(raw, index.path, present)


def _unused_sidecars(sidecars: dict[str, tuple[str, ForeignFile]], store: Store, out: Store,
                     warnings: list[str]) -> None:
    """Sidecar notes no record used: each is said; one holding more than memconv's carry is kept as a file.

    A note naming a file that is not a record of the store (its bare file deleted in the target, or a crafted path),
    or a record wearing a carry of its own, restores nothing. It left the store in silence, with any text a person
    wrote in it. One that is exactly what memconv writes holds only memconv's carry: not kept (the file's deletion is
    the user's), only said. Run only when one is left, so the pass over the records is no cost of a conversion.
    """
    worn = {path for record in store.records if record.source is not None
            and (path := record.source.path) in sidecars}
    for path, (carry, foreign) in sorted(sidecars.items()):
        why = "which wears its own carry" if path in worn else \
            f"a file that is not a record of this store (deleted or moved in {store.dialect}?)"
        if notes.sidecar_holds_more(foreign, path, carry):
            warnings.append(f"{foreign.path}: the carry of {path}, {why}; the note holds more than memconv's carry: "
                            "kept as a file, not restored")
            out.foreign.append(foreign)
        else:
            warnings.append(f"{foreign.path}: the carry of {path}, {why}; not restored")


def _described_apart(shown: frozenset[str]) -> bool:
    """Whether a target's kind that shows ``shown`` shows a record's description apart from its body: in a key of its
    own (memoir's ``description``), or as an episode's outcome (memfmt's, which a decision's description is)."""
    return "body" in shown and bool({"description", "outcome"} & shown)


def home_record(record: Record, carry: Carry, kind: str | None = None, fresh: bool = False,
                own: tuple[str, ...] = ()) -> Record:
    """``record`` read from a target, mapped home to the dialect it was converted from.

    ``kind`` is the kind it had there, when known (carried, or at conversion time);
    otherwise the owner's own word for the target's kind. ``fresh``: ``record`` is
    used by no one else (a read-back), so it is changed in place rather than copied.
    ``own``: the labelled paragraphs that are the body's own (``transforms.own_labels``).
    """
    home = record if fresh else clone(record)
    if fresh:
        home.source = None
    strip_carry(home)
    kind = kind or carry.payload.get("kind") or TARGET_KIND.get(carry.owner, {}).get(record.kind, record.kind)
    return transforms.backward(home, record.kind, kind, carry.owner, own)


def _restore_store(out: Store, payload: dict[str, Any], store: Store, where: str, warnings: list[str],
                   members: set[str]) -> None:
    """Index files and store facts from a store note, parsed again by their own dialect when it can.

    The note came from IN: an index whose path, or a store fact whose folder, would leave the
    store is ignored with a warning naming the note (``where``).
    """
    owner = payload.get("from")
    present = {f"{r.link}.md" for r in store.records}
    raws = payload.get("raw", {}) if isinstance(payload.get("raw"), dict) else {}
    fingerprints = payload.get("fingerprints", {}) if isinstance(payload.get("fingerprints"), dict) else {}
    read_by = payload.get("index_from", {}) if isinstance(payload.get("index_from"), dict) else {}
    listed = payload.get("members")
    if isinstance(listed, list):
        members.update(m for m in listed if isinstance(m, str))
    for encoded in payload.get("indexes", []) if isinstance(payload.get("indexes"), list) else ():
        try:
            index = from_json(encoded, IndexFile)
        except (TypeError, ValueError, KeyError, AttributeError):
            warnings.append(f"{where}: an index it holds does not hold together; ignored")
            continue
        if not safe_link(index.path.removesuffix(".md") if isinstance(index.path, str) else None):
            warnings.append(f"{where}: it names the index {index.path!r}, which would land outside the store; ignored")
            continue
        raw = raws.get(index.path)
        dialect = read_by.get(index.path, owner)  # from IN: any JSON value
        read_index = dialects.declaration(dialect, "read_index") \
            if isinstance(dialect, str) and dialect in TARGET_KIND else None
        if isinstance(raw, str) and read_index is not None:
            try:
                index = read_index(raw.encode("utf-8"), index.path, present)
            except ReadError as exc:
                if index == IndexFile(path=index.path):
                    # The note held its text alone (forward._noted), and that text is not an index: none is kept,
                    # and the writer makes its own.
                    warnings.append(f"{where}: the index {index.path} it holds is not one {dialect} reads "
                                    f"({exc.problem}); ignored: {dialect}'s writer makes it anew")
                    continue
                warnings.append(f"{where}: the index {index.path} it holds is not one {dialect} reads "
                                f"({exc.problem}); it is written from what the note says of it")
                out.indexes.append(index)
                continue
            fingerprint = fingerprints.get(index.path)
            if isinstance(fingerprint, str) and index.source is not None:
                index.source.fingerprint = fingerprint  # only compared: its writer keeps the bytes while it matches
        out.indexes.append(index)
    meta = payload.get("meta")
    if isinstance(meta, dict) and meta:
        for key in folder_facts():
            value = meta.get(key)
            if value is None:
                continue
            if value != "" and not safe_link(str(value).rstrip("/")):
                why = "names a folder outside the store"
            elif not folder_fact_read(key, value):
                why = f"names a folder no {owner} store is read from"
            else:
                continue
            warnings.append(f"{where}: its store fact {key}={value!r} {why}; ignored")
            meta = {k: v for k, v in meta.items() if k != key}
        out.meta = {"memconv.meta_from": owner, **meta}


def _restore_sources(items: list[tuple[Record, str, dict[str, Any], Record | None]], homes: list[Record] = (),
                     owners: dict[int, str] | None = None) -> list[str]:
    """Give restored records their original file back from its format patch, where it still applies.

    The patch came from IN: one that names a path outside the store is ignored, with a warning; so is one
    that names the file another record of ``homes`` (``owners``: id → its dialect) is written to alone
    (:func:`_claimed`).
    """
    from ..errors import OutputError
    from ..fs import safe_relpath

    rebuilt, warnings = [], []
    moved: list[tuple[Record, str, str]] = []  # (record, owner, path) of patches naming a file not its own
    for home, owner, patch, was in items:
        path = patch.get("path") if isinstance(patch, dict) else None
        try:
            safe_relpath(path if isinstance(path, str) else "")
        except OutputError:
            warnings.append(f"{home.link}: its carried format patch names {path!r}, which would land outside "
                            "the store; ignored, the record is written canonically")
            continue
        try:
            canonical = format_patch.render_alone(owner, home)
            raw = format_patch.rebuild(canonical, patch)
            exact = raw is not None  # the file as it was in IN
            if raw is None and was is not None:
                # Edited since, its lines moved (a key taken out): the patch's changes follow them.
                raw = format_patch.rebuild_moved(canonical, format_patch.render_alone(owner, was), patch)
            if raw is None:  # edited since, its lines moved by a change the carry cannot undo: found by their lines
                raw = format_patch.rebuild_near(canonical, patch)
            if raw is None:  # edited since: its file's layout still comes home, for its writer to use
                raw = format_patch.rebuild_after_edit(canonical, patch)
        except (TypeError, ValueError, KeyError, AttributeError, IndexError):
            warnings.append(f"{home.link}: its carried format patch does not hold together; ignored, "
                            "the record is written canonically")
            continue
        if raw is not None:
            rebuilt.append((home, owner, patch["path"], raw, exact))
            if canonical is not None and canonical[0] != patch["path"] \
                    and format_patch.stem_of(owner, patch["path"]) != format_patch.stem_of(owner, canonical[0]):
                moved.append((home, owner, patch["path"]))
    claimed = _claimed(moved, homes, owners or {}, {id(r[0]): r[2] for r in rebuilt})
    for home, other, path in claimed:
        warnings.append(f"{home.link}: its carried format patch names {path}, the file of another record "
                        f"({other.link}); ignored, the record is written canonically and {path} stays {other.link}'s")
    if claimed:
        refused = {id(h) for h, _, _ in claimed}
        rebuilt = [r for r in rebuilt if id(r[0]) not in refused]
    if not rebuilt:
        return warnings
    again = reread([(owner, path, raw) for _, owner, path, raw, _ in rebuilt])
    for home, owner, path, _, exact in rebuilt:
        found = again.get((owner, path))
        # A file rebuilt after an edit that writes a key twice is not used (the patch landed beside the line it
        # was to replace); IN's own file may (YAML lets the last win), and comes home as it was.
        if found is not None and (exact or one_line_per_key(found)):
            # Unedited, the file is the original and its writer reuses it; edited, the writer
            # renders the record in the original's layout (docs/conversion.md, "One formatting mechanism").
            home.source = found.source
            if exact and (found.edges or "[[" in found.body) \
                    and _named_otherwise(found, home, printed := fingerprint(home)):
                # Its links name the records as the dialect read does (memoir's fact_staging-endpoints, where the
                # file has memspec's ms_…): no edit of its own, so it keeps its file's patch on to a third dialect,
                # as an untouched record does (forty-seventh session; docs/conversion.md).
                home.source = found.source.replaced(fingerprint=printed)
    return warnings


def _named_otherwise(found: Record, home: Record, printed: str) -> bool:
    """Whether ``home`` (its fingerprint ``printed``) is ``found`` (its file rebuilt, with edges or body links) but
    for the names its edges and body links give the records they link, pair by pair in order."""
    if len(found.edges) != len(home.edges) or found.source.fingerprint == printed:
        return False
    pairs = [(a.target, b.target) for a, b in zip(found.edges, home.edges)]
    if any((a.type, a.direction, a.note) != (b.type, b.direction, b.note) for a, b in zip(found.edges, home.edges)):
        return False
    linked, named = link_targets(found.body), link_targets(home.body)
    if len(linked) == len(named):
        pairs += zip(linked, named)
    rename = {a: b for a, b in pairs if a != b}
    if not rename:
        return False
    renamed = clone(found)
    rename_links(renamed, rename)
    return fingerprint(renamed) == printed


def _claimed(moved: list[tuple[Record, str, str]], homes: list[Record], owners: dict[int, str],
             patched: dict[int, str]) -> list[tuple[Record, Record, str]]:
    """(record, the other record, path) for each carried format patch of ``moved`` that names the file its
    dialect's writer gives another record of ``homes`` alone: a crafted carry. Written there, the record took
    the other's name, and the other was numbered in silence (memfmt: ``Kenji (2).md``; memoir and claude
    warned, not saying which carry claimed it). A patch naming a file no other record is given (a hand-named
    file), or its record's own name numbered (``Redis (2).md``), is the record's own; so is the file of a record
    whose own patch (``patched``: id → the path it names) puts it elsewhere (memfmt: an untitled ``episode.md``
    beside a blank ``unnamed.md``, which alone would be written ``episode.md``)."""
    found = []
    given: dict[str, dict[str, list[Record]]] = {}  # owner → folded path → the records written there alone
    for home, owner, path in moved:
        if owner not in given:  # made once, and only when a patch names a file not its own (rare)
            given[owner] = {}
            for other in homes:
                if owners.get(id(other)) != owner:
                    continue
                if id(other) in patched:
                    given[owner].setdefault(fold(patched[id(other)]), []).append(other)
                    continue
                alone = format_patch.render_alone(owner, other)
                if alone is not None:
                    given[owner].setdefault(fold(alone[0]), []).append(other)
        other = next((r for r in given[owner].get(fold(path), ()) if r is not home), None)
        if other is not None:
            found.append((home, other, path))
    return found
