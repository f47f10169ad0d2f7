"""Recording a battle played on the table.

Each side's player (or the organiser) submits an entry (:func:`record_submit`): what each
of their units lost, checked against its SSD at once so errors name the ship and field.
The organiser or a player of another side confirms it (:func:`record_confirm`); when every
side with units has a confirmed entry, the battle concludes through
``battles.services.battle_conclude`` (entries checked again against the locked ships).
:func:`battle_record` concludes in one step (organisers, the API, the sample loader).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.models import Battle, BattleAction, BattleSide, Participant, RecordEntry
from battles.rules.ships import ShipState
from battles.services.common import (
    DESIGN_ERRORS,
    MAX_TURNS_LIMIT,
    BattleActionError,
    battle_sides,
    count,
    crew_lost_from_hull,
    engine_ship,
    label,
    locked,
    refuse_turn_play,
)
from battles.services.conclude import Conclusion, UnitResult, battle_conclude
from battles.services.permissions import (
    require_battle_organiser,
    require_confirmer,
    require_side_or_organiser,
)
from battles.signals import record_entry_submitted
from campaign.core.messages import message, message_of, text_of
from factions.models import Ship

__all__ = [
    "battle_record",
    "check_results",
    "record_confirm",
    "record_reject",
    "record_submit",
    "ship_system_ids",
]

RESULT_FIELDS = {
    "participant",
    "fate",
    "hull_lost",
    "armour_lost",
    "crew_lost",
    "systems_lost",
    "craft_lost",
    "notes",
}


def _state(where: str, ship: Ship) -> ShipState:
    try:
        return engine_ship(ship, side="table")
    except DESIGN_ERRORS as exc:
        raise BattleActionError(
            _("%(where)s: class %(ship_class)r (design): %(error)s")
            % {"where": where, "ship_class": ship.ship_class.name, "error": exc}
        ) from exc


def ship_system_ids(ship: Ship) -> list[str]:
    """The system ids a record may mark destroyed on ``ship``: its class design's systems
    and the synthesised ``fc-N``, ``screen-N``, ``drive``, ``bridge``… (§11), those
    already lost included. Empty when the design cannot be built."""
    try:
        return list(_state(str(ship), ship).systems)
    except BattleActionError:
        return []


def _fate(where: str, entry: Mapping[str, Any]) -> str:
    fate = entry.get("fate", Participant.Fate.UNHARMED)
    if fate not in Participant.Fate.values:
        raise BattleActionError(
            _("%(where)s.fate: %(value)r, expected one of %(choices)s")
            % {"where": where, "value": fate, "choices": Participant.Fate.values}
        )
    return fate


def _ship_result(where: str, p: Participant, entry: Mapping[str, Any]) -> UnitResult:
    """One ship's entry checked against its SSD (rules §4, §11)."""
    ship = p.ship
    if entry.get("craft_lost"):
        raise BattleActionError(
            _(
                "%(where)s.craft_lost: %(value)r, but a ship has no craft_lost: enter the "
                "craft a carrier lost on its light-unit group's own participant"
            )
            % {"where": where, "value": entry["craft_lost"]}
        )
    state = _state(where, ship)
    fate = _fate(where, entry)
    if ship.status in (Ship.Status.DESTROYED, Ship.Status.CAPTURED):
        raise BattleActionError(
            _("%(where)s: the ship was already %(status)s before this battle")
            % {"where": where, "status": ship.get_status_display()}
        )
    hull_left, armour_left, crew_left = state.hull_left, state.armour_left, state.crew_left
    name = ship.ship_class.name
    if fate == Participant.Fate.DESTROYED:
        # A destroyed ship loses every box and crew factor left (as the sample loader does).
        return UnitResult(
            p.pk, fate, hull_left, armour_left, crew_left, [], 0, str(entry.get("notes", ""))
        )
    hull = count(where, entry, "hull_lost")
    armour = count(where, entry, "armour_lost")
    crew = count(where, entry, "crew_lost", None)
    if hull > hull_left or (hull == hull_left and hull_left > 0):
        raise BattleActionError(
            _(
                "%(where)s.hull_lost: %(value)s, but the %(name)s has %(left)s of %(max)s "
                "hull boxes left (losing them all means fate '%(destroyed)s')"
            )
            % {
                # The fate as the reader's form names it ("détruit"), not its key.
                "destroyed": Participant.Fate.DESTROYED.label,
                "where": where,
                "value": hull,
                "name": name,
                "left": hull_left,
                "max": state.hull_max,
            }
        )
    if armour > armour_left:
        raise BattleActionError(
            _(
                "%(where)s.armour_lost: %(value)s, but the %(name)s has %(left)s of %(max)s "
                "armour boxes left"
            )
            % {
                "where": where,
                "value": armour,
                "name": name,
                "left": armour_left,
                "max": state.armour_max,
            }
        )
    if crew is None:
        crew = max(
            0,
            crew_lost_from_hull(state.crew_max, state.hull_max, state.hull_lost + hull)
            - state.crew_lost,
        )
    if crew > crew_left:
        raise BattleActionError(
            _(
                "%(where)s.crew_lost: %(value)s, but the %(name)s has %(left)s of %(max)s "
                "crew factors left"
            )
            % {
                "where": where,
                "value": crew,
                "name": name,
                "left": crew_left,
                "max": state.crew_max,
            }
        )
    systems = entry.get("systems_lost") or []
    if not isinstance(systems, list) or not all(isinstance(s, str) for s in systems):
        raise BattleActionError(
            _("%(where)s.systems_lost: expected a list of system ids") % {"where": where}
        )
    unknown = [s for s in systems if s not in state.systems]
    if unknown:
        raise BattleActionError(
            _("%(where)s.systems_lost: %(unknown)s are not systems of the %(name)s (%(systems)s)")
            % {
                "where": where,
                "unknown": unknown,
                "name": name,
                "systems": ", ".join(state.systems),
            }
        )
    if len(set(systems)) != len(systems):
        raise BattleActionError(
            _("%(where)s.systems_lost: %(systems)s names a system twice")
            % {"where": where, "systems": systems}
        )
    systems = [s for s in systems if s not in (ship.systems_lost or [])]
    if fate == Participant.Fate.UNHARMED and (hull or armour or crew or systems):
        raise BattleActionError(
            _("%(where)s.fate: '%(unharmed)s' but losses are entered")
            % {"where": where, "unharmed": Participant.Fate.UNHARMED.label}
        )
    return UnitResult(p.pk, fate, hull, armour, crew, systems, 0, str(entry.get("notes", "")))


def _light_units_result(where: str, p: Participant, entry: Mapping[str, Any]) -> UnitResult:
    group = p.light_units
    fate = _fate(where, entry)
    craft = count(where, entry, "craft_lost")
    if fate == Participant.Fate.DESTROYED:
        craft = group.strength
    if craft > group.strength:
        raise BattleActionError(
            _("%(where)s.craft_lost: %(value)s, but %(group)s has %(left)s craft left")
            % {"where": where, "value": craft, "group": group.name, "left": group.strength}
        )
    for name in ("hull_lost", "armour_lost", "crew_lost", "systems_lost"):
        if entry.get(name):
            raise BattleActionError(
                _("%(where)s.%(field)s: a light-unit group has no %(field)s")
                % {"where": where, "field": name}
            )
    return UnitResult(p.pk, fate, craft_lost=craft, notes=str(entry.get("notes", "")))


def check_results(
    battle: Battle,
    sides: list[BattleSide],
    results: Sequence[Mapping[str, Any]],
    *,
    only_side: BattleSide | None = None,
) -> list[UnitResult]:
    """Check ``results`` entries (shape: :func:`battle_record`) against each unit's SSD and
    craft left; ``only_side``: entries must be that side's units. Raises
    :class:`BattleActionError` naming ``results[i]``, the participant (ship) and field."""
    participants = {p.pk: p for s in sides for p in s.participants.all()}
    allowed = (
        {p.pk for p in only_side.participants.all()} if only_side is not None else participants
    )
    seen: set[int] = set()
    out = []
    for i, entry in enumerate(results):
        if not isinstance(entry, Mapping):
            raise BattleActionError(_("results[%(i)s]: expected an object") % {"i": i})
        pk = entry.get("participant")
        p = participants.get(pk) if isinstance(pk, int) and pk in allowed else None
        if p is None:
            raise BattleActionError(
                (
                    _(
                        "results[%(i)s].participant: %(value)r is not a participant of battle "
                        "%(battle)s on this side (%(allowed)s)"
                    )
                    if only_side
                    else _(
                        "results[%(i)s].participant: %(value)r is not a participant of battle "
                        "%(battle)s (%(allowed)s)"
                    )
                )
                % {
                    "i": i,
                    "value": pk,
                    "battle": battle.pk,
                    "allowed": ", ".join(map(str, sorted(allowed))),
                }
            )
        where = f"results[{i}] ({label(p)})"
        if pk in seen:
            raise BattleActionError(_("%(where)s.participant: entered twice") % {"where": where})
        seen.add(pk)
        extra = sorted(set(entry) - RESULT_FIELDS)
        if extra:
            raise BattleActionError(
                _("%(where)s: unknown field(s) %(fields)s") % {"where": where, "fields": extra}
            )
        if p.ship is not None:
            out.append(_ship_result(where, p, entry))
        else:
            out.append(_light_units_result(where, p, entry))
    return out


def _check_game_turns(game_turns: Any) -> None:
    if game_turns is not None and (
        not isinstance(game_turns, int)
        or isinstance(game_turns, bool)
        or not 0 <= game_turns <= MAX_TURNS_LIMIT
    ):
        raise BattleActionError(
            _("game_turns: %(value)r, expected a whole number 0–%(max)s")
            % {"value": game_turns, "max": MAX_TURNS_LIMIT}
        )


def battle_record(
    *,
    battle: Battle,
    results: Sequence[Mapping[str, Any]],
    outcome: str,
    winner: str | None,
    game_turns: int | None = None,
    narrative: str | None = None,
    user: Any,
) -> Battle:
    """Record a battle played on the table and conclude it at once; returns the battle.

    ``results``: one entry per participant that did more than sit unharmed —
    ``{"participant": <Participant id>, "fate": "unharmed|damaged|destroyed|captured|fled",
    "hull_lost": boxes, "armour_lost": boxes, "crew_lost": crew factors (default: from the
    hull lost, D-9), "systems_lost": [system ids of the class design, incl. fc-N,
    screen-N, drive, bridge, life-support, core], "craft_lost": craft (light units),
    "notes": text}``; losses are those of this battle, on top of the ship's carried damage.
    A destroyed ship loses every hull and armour box and crew factor it had left.
    Participants not listed are unharmed. ``winner``: a side's faction slug, or None for a
    draw. ``outcome``: text. ``game_turns``: turns played, if known
    (0–``MAX_TURNS_LIMIT``). ``narrative``: Markdown replacing the battle's narrative (None
    keeps it).

    Checked against each ship's SSD (rules §4, §11): no more hull, armour
    or crew than the ship has left, all hull lost only with fate ``destroyed``, system ids
    of the design only, no losses with fate ``unharmed``. Raises
    :class:`BattleActionError` naming ``results[i]``, the participant and the field (or a
    concluded battle, a winner not among the sides); nothing is written then. Written by
    ``battle_conclude`` (one transaction, locks, snapshot, intel, report queued).
    ``user`` must organise the campaign (:class:`~campaign.core.refusals.Refused`).
    """
    require_battle_organiser(user, battle.campaign)
    return _record_and_conclude(
        battle=battle,
        results=results,
        outcome=outcome,
        winner=winner,
        game_turns=game_turns,
        narrative=narrative,
        user=user,
    )


def _record_and_conclude(
    *,
    battle: Battle,
    results: Sequence[Mapping[str, Any]],
    outcome: str,
    winner: str | None,
    game_turns: int | None,
    narrative: str | None,
    user: Any,
) -> Battle:
    # Shared by the organiser's outright record and the last confirmation, whose
    # permission checks differ (each runs its own before calling).
    _check_game_turns(game_turns)

    def build(b: Battle, sides: list[BattleSide]) -> Conclusion:
        refuse_turn_play(b)
        return Conclusion(
            mode=Battle.Mode.RECORDED,
            results=check_results(b, sides, results),
            winner=winner,
            outcome=outcome,
            game_turns=game_turns,
            narrative=narrative,
            summary=message("battle.recorded"),
        )

    return battle_conclude(battle=battle, conclusion=build, user=user)


def record_submit(
    *,
    battle: Battle,
    side: BattleSide | None,
    results: Sequence[Mapping[str, Any]],
    user: Any,
    outcome: str = "",
    winner: str | None = None,
    game_turns: int | None = None,
    narrative: str = "",
) -> RecordEntry:
    """Submit one side's account of a table battle (``side`` None: the organiser's entry
    for every side), checked now against the SSDs (shape of ``results``:
    :func:`battle_record`); ``winner``, a side's faction slug, is kept as that side. A
    new entry replaces that side's earlier unconfirmed ones. ``user`` must play ``side`` or
    organise the campaign (:class:`~campaign.core.refusals.Refused`). Raises
    :class:`BattleActionError` naming the ship and field; nothing is written then."""
    require_side_or_organiser(user, battle, side.pk if side is not None else None)
    _check_game_turns(game_turns)
    with transaction.atomic():
        b = locked(battle)
        refuse_turn_play(b)
        sides = battle_sides(b)
        own = next((s for s in sides if side is not None and s.pk == side.pk), None)
        if side is not None and own is None:
            raise BattleActionError(
                _("side %(side)s: not a side of battle %(battle)s")
                % {"side": side.pk, "battle": b.pk}
            )
        winner_side = next((s for s in sides if winner and s.faction.slug == winner), None)
        if winner and winner_side is None:
            raise BattleActionError(
                _("winner: %(value)r is not a side of battle %(battle)s")
                % {"value": winner, "battle": b.pk}
            )
        check_results(b, sides, results, only_side=own)
        RecordEntry.objects.filter(
            battle=b, side=side, status=RecordEntry.Status.SUBMITTED
        ).delete()
        entry = RecordEntry.objects.create(
            battle=b,
            side=side,
            results=[dict(r) for r in results],
            outcome=outcome,
            winner=winner_side,
            game_turns=game_turns,
            narrative=narrative,
            submitted_by=user if getattr(user, "is_authenticated", False) else None,
        )
        line = message("battle.entry_for", side=own.faction.name if own else None, n=len(results))
        BattleAction.objects.create(
            battle=b,
            user=entry.submitted_by,
            kind=BattleAction.Kind.RECORD,
            summary=text_of(line),
            summary_message=line,
            data={"entry": entry.pk},
        )
        record_entry_submitted.send(sender=RecordEntry, entry=entry)
    return entry


def _covered(sides: list[BattleSide], entries: list[RecordEntry]) -> bool:
    if any(e.side_id is None for e in entries):
        return True
    done = {e.side_id for e in entries}
    return all(s.pk in done for s in sides if s.participants.all())


def _entry_label(entry: RecordEntry) -> str:
    side = entry.side.faction.name if entry.side_id else _("every side")
    claim = entry.winner.faction.name if entry.winner_id else _("no winner")
    return _("entry %(entry)s for %(side)s names %(winner)s") % {
        "entry": entry.pk,
        "side": side,
        "winner": claim,
    }


def _refuse_other_winner(entry: RecordEntry) -> None:
    """Raise :class:`BattleActionError` when side ``entry`` names a winner other than the
    one a confirmed side entry of its battle names. An entry naming no winner leaves it to
    the others; the organiser's entry for every side stands on its own."""
    if entry.side_id is None or entry.winner_id is None:
        return
    other = (
        RecordEntry.objects.filter(
            battle_id=entry.battle_id,
            status=RecordEntry.Status.CONFIRMED,
            side__isnull=False,
            winner__isnull=False,
        )
        .exclude(winner_id=entry.winner_id)
        .select_related("side__faction", "winner__faction")
        .order_by("confirmed_at", "pk")
        .first()
    )
    if other is not None:
        raise BattleActionError(
            _("winner: %(entry)s, but the confirmed %(other)s; reject one of them")
            % {"entry": _entry_label(entry), "other": _entry_label(other)}
        )


def record_confirm(*, entry: RecordEntry, user: Any) -> RecordEntry:
    """Confirm a submitted entry (``user`` organises the campaign or plays another side:
    :class:`~campaign.core.refusals.Refused` otherwise). When every side with units then
    has a confirmed entry (or the organiser's entry covers them all), the battle concludes
    with the confirmed entries' results (checked again), the latest outcome, turns and
    narrative given, and the one winner they name (none named: a draw). Raises
    :class:`BattleActionError` for an entry not waiting for confirmation, a side's entry
    naming another winner than a confirmed side's entry (both claims named), results no
    longer valid (naming ship and field), or a battle being fought turn by turn; nothing is
    written then."""
    require_confirmer(user, entry)
    with transaction.atomic():
        entry = RecordEntry.objects.select_for_update().get(pk=entry.pk)
        refuse_turn_play(entry.battle)
        if entry.status != RecordEntry.Status.SUBMITTED:
            raise BattleActionError(
                _("record entry %(entry)s: already %(status)s")
                % {"entry": entry.pk, "status": entry.get_status_display()}
            )
        _refuse_other_winner(entry)
        entry.status = RecordEntry.Status.CONFIRMED
        entry.confirmed_by = user if getattr(user, "is_authenticated", False) else None
        entry.confirmed_at = timezone.now()
        entry.save()
        line = message("battle.entry_confirmed", n=entry.pk)
        BattleAction.objects.create(
            battle_id=entry.battle_id,
            user=entry.confirmed_by,
            kind=BattleAction.Kind.CONFIRM,
            summary=text_of(line),
            summary_message=line,
            data={"entry": entry.pk},
        )
        battle = entry.battle
        confirmed = list(
            RecordEntry.objects.filter(battle=battle, status=RecordEntry.Status.CONFIRMED).order_by(
                "confirmed_at", "pk"
            )
        )
        if _covered(battle_sides(battle), confirmed):
            whole = [e for e in confirmed if e.side_id is None]
            used = whole[-1:] if whole else confirmed
            results = [r for e in used for r in e.results]
            latest = dict.fromkeys(("outcome", "narrative"), "")
            turns = None
            for e in used:
                for k in latest:
                    latest[k] = getattr(e, k) or latest[k]
                turns = e.game_turns if e.game_turns is not None else turns
            # Confirmed entries never name two different winners (_refuse_other_winner).
            winner = next((e.winner for e in used if e.winner_id), None)
            _record_and_conclude(
                battle=battle,
                results=results,
                outcome=latest["outcome"],
                winner=winner.faction.slug if winner else None,
                game_turns=turns,
                narrative=latest["narrative"] or None,
                user=user,
            )
    return entry


def record_reject(
    *, entry: RecordEntry, user: Any, reason: str = "", withdraw: bool = False
) -> RecordEntry:
    """Turn down a submitted entry (its side submits again): the organisers or another
    side; ``withdraw``: the organisers or the entry's own side
    (:class:`~campaign.core.refusals.Refused` otherwise). Raises
    :class:`BattleActionError` for an entry not waiting for confirmation."""
    require_confirmer(user, entry, withdraw=withdraw)
    with transaction.atomic():
        entry = RecordEntry.objects.select_for_update().get(pk=entry.pk)
        if entry.status != RecordEntry.Status.SUBMITTED:
            raise BattleActionError(
                _("record entry %(entry)s: already %(status)s")
                % {"entry": entry.pk, "status": entry.get_status_display()}
            )
        entry.status = RecordEntry.Status.REJECTED
        entry.save()
        line = reason or message("battle.entry_rejected", n=entry.pk)
        BattleAction.objects.create(
            battle_id=entry.battle_id,
            user=user if getattr(user, "is_authenticated", False) else None,
            kind=BattleAction.Kind.REJECT,
            summary=text_of(line),
            summary_message=message_of(line),
            data={"entry": entry.pk},
        )
    return entry
