"""Resolving a battle with the rules engine: preview, conclude, replay.

The engine (``battles.rules.ai``) fights the fielded units (``fielding.field_battle``)
with the auto-resolve tactics and the campaign's rule options (§16). The log is stored
as ``Event`` rows: a ``setup`` row (seed, options, each unit's design and carried damage,
the fixed platforms), then every engine event with, just before it, every die rolled
since the previous event as a ``roll`` row (``data = {"n", "purpose", "sides",
"result"}``), so a battle is audited roll by roll and :func:`battle_replay` re-fights it
from its log alone.

The engine's events do not carry every face (initiative events give sums, threshold
checks give no face), so the dice come from ``ai.BattleResult.rolls`` and
``BattleResult.interleaved()``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from battles.models import Battle, BattleAction, BattleSide, Event, Participant
from battles.rules import ai
from battles.rules.errors import RulesError
from battles.rules.options import RuleOptions
from battles.rules.ships import ShipState
from battles.services.common import (
    MAX_TURNS_LIMIT,
    SEED_BITS,
    BattleActionError,
    battle_label,
    battle_sides,
    locked,
    refuse_turn_play,
)
from battles.services.conclude import Conclusion, UnitResult, battle_conclude
from battles.services.engine_log import engine_rows, fight, numbered, setup_row
from battles.services.fielding import Fielded, field_battle, load_bay, rule_options
from battles.services.intel import intel_known_classes
from battles.services.permissions import require_battle_organiser
from campaign.core.messages import StoredMessage, message, message_of, text_of

__all__ = [
    "ResolvePreview",
    "battle_replay",
    "battle_reseed",
    "battle_resolve",
    "battle_resolve_preview",
    "conclusion_from_engine",
    "event_rows",
    "outcome_message",
]


# ---- results ---------------------------------------------------------------------------


def outcome_message(
    outcome: ai.BattleResult, names: Mapping[str, str], seed: int, *, play: bool = False
) -> StoredMessage:
    """The engine's outcome as a message (``campaign.core.messages``), in English ``Phalon
    victory: …, after 5 turns. Resolved by the rules engine (seed N).``; ``play``: fought
    turn by turn from both sides' orders rather than auto-resolved."""
    if outcome.winner is not None:
        head = message("outcome.victory", side=names[outcome.winner], reason=outcome.reason)
    elif outcome.reason == "turn-limit":
        head = message("outcome.draw_turn_limit")
    else:
        head = message("outcome.mutual" if outcome.reason == "mutual" else "outcome.no_winner")
    return message("outcome.engine", head=head, n=outcome.turns, seed=seed, play=play)


def _ship_result(f: Fielded, final: ShipState) -> UnitResult:
    """This battle's losses and fate of a ship from its start and final engine states."""
    start = f.start
    before = set(start.systems_lost)
    r = UnitResult(
        participant=f.participant.pk,
        hull_lost=max(0, final.hull_lost - start.hull_lost),
        armour_lost=max(0, final.armour_lost - start.armour_lost),
        crew_lost=max(0, final.crew_lost - start.crew_lost),
        systems_lost=[s for s in final.systems_lost if s not in before],
    )
    notes = []
    if final.destroyed:
        r.fate = Participant.Fate.DESTROYED
    elif final.captured:
        r.fate = Participant.Fate.CAPTURED
    else:
        lost = r.hull_lost or r.armour_lost or r.crew_lost or r.systems_lost
        if final.withdrawn:
            r.fate = Participant.Fate.FLED
        else:
            r.fate = Participant.Fate.DAMAGED if lost else Participant.Fate.UNHARMED
        if final.derelict:
            notes.append("left derelict: crew lost to life support failure (§4)")
            r.fate = Participant.Fate.DAMAGED
        if final.dead_in_space:
            notes.append("left dead in space: core shut down (§4)")
            r.fate = Participant.Fate.DAMAGED
    r.notes = "; ".join(notes)
    return r


def craft_left_after(rows: list[dict[str, Any]], destroyed: set[str]) -> dict[tuple[str, str], int]:
    """Craft left at the end per launched squadron, keyed by the (carrier ship id, bay id)
    it started in, from the ``launch``, ``land`` and ``light-unit-losses`` entries
    (turn.py). A squadron out of endurance keeps its craft (it is off the table, not
    destroyed); one that landed (possibly in another bay or carrier, then relaunched from
    there) is followed through its landing; one aboard a carrier in ``destroyed`` (ship
    ids) at the end is lost with it."""
    unit_origin: dict[str, tuple[str, str]] = {}
    bay_holds: dict[tuple[str, str], tuple[str, str]] = {}  # bay -> squadron (by origin)
    aboard: dict[tuple[str, str], str] = {}  # squadron (by origin) -> carrier it sits on
    left: dict[tuple[str, str], int] = {}
    for row in rows:
        data = row["data"]
        kind = row["kind"]
        if kind == "launch" and data.get("system") and data.get("unit"):
            bay = (data["ship"], data["system"])
            origin = bay_holds.pop(bay, bay)
            unit_origin[data["unit"]] = origin
            aboard.pop(origin, None)
            left[origin] = int(data.get("craft", 0))
        elif kind == "land" and data.get("unit") in unit_origin:
            origin = unit_origin[data["unit"]]
            bay_holds[(data["ship"], data["system"])] = origin
            aboard[origin] = data["ship"]
            left[origin] = int(data.get("craft", 0))
        elif kind == "light-unit-losses" and data.get("unit") in unit_origin:
            left[unit_origin[data["unit"]]] = int(data.get("craft", 0))
    for origin, carrier in aboard.items():
        if carrier in destroyed:
            left[origin] = 0
    return left


def _squadron_results(
    f: Fielded, final: ShipState, craft_left: dict[tuple[str, str], int]
) -> list[UnitResult]:
    """Craft lost by each group the unit carried: those shot down once launched, or all
    still aboard when the carrier (or base) is destroyed."""
    out = []
    for bay_id, p in f.squadrons.items():
        aboard = p.light_units.strength
        # Never launched: the craft share their carrier's fate.
        left = craft_left.get((f.start.ship_id, bay_id), 0 if final.destroyed else aboard)
        lost = max(0, aboard - left)
        if aboard and lost == aboard:
            fate = Participant.Fate.DESTROYED
        else:
            fate = Participant.Fate.DAMAGED if lost else Participant.Fate.UNHARMED
        out.append(UnitResult(participant=p.pk, fate=fate, craft_lost=lost))
    return out


def _battery_result(f: Fielded, final: ShipState) -> UnitResult:
    """A battery platform: one battery lost per mount destroyed, all when destroyed."""
    strength = f.participant.light_units.strength
    mounts = [s for s in final.systems_lost if s.startswith("battery-")]
    lost = strength if final.destroyed else min(strength, len(mounts))
    if lost == strength:
        fate = Participant.Fate.DESTROYED
    else:
        fate = Participant.Fate.DAMAGED if lost else Participant.Fate.UNHARMED
    return UnitResult(participant=f.participant.pk, fate=fate, craft_lost=lost)


def conclusion_from_engine(
    *,
    fleets: list[list[Fielded]],
    final: Mapping[str, ShipState],
    rows: list[dict[str, Any]],
    winner: str | None,
    outcome: StoredMessage,
    game_turns: int,
    seed: int | None,
    mode: str = Battle.Mode.RESOLVED,
) -> Conclusion:
    """A :class:`Conclusion` from the engine's final states (``final``: ship id →
    ``ShipState``, ids as ``field_battle`` made them) and the log ``rows`` (setup row
    first); ``outcome``: a message (:func:`outcome_message`), stored with its English.
    For the auto-resolve and for the last turn of a turn-by-turn battle."""
    destroyed = {sid for sid, state in final.items() if state.destroyed}
    craft_left = craft_left_after(rows, destroyed)
    results: list[UnitResult] = []
    for fleet in fleets:
        for f in fleet:
            state = final[f.start.ship_id]
            if f.ship is not None:
                results.append(_ship_result(f, state))
            elif not f.squadrons:
                results.append(_battery_result(f, state))
            results += _squadron_results(f, state, craft_left)
    return Conclusion(
        mode=mode,
        results=results,
        winner=winner,
        outcome=text_of(outcome),
        outcome_message=outcome,
        game_turns=game_turns,
        seed=seed,
        events=rows,
        summary=outcome,
    )


@dataclass
class ResolvePreview:
    """An auto-resolve fought but not written: the result the battle would conclude with,
    the engine's log rows (setup first) and its raw result."""

    conclusion: Conclusion
    result: ai.BattleResult
    seed: int
    max_turns: int


def _check_args(seed: Any, max_turns: Any) -> None:
    if not isinstance(max_turns, int) or not 1 <= max_turns <= MAX_TURNS_LIMIT:
        raise BattleActionError(
            _("max_turns: %(value)r, expected 1–%(max)s")
            % {"value": max_turns, "max": MAX_TURNS_LIMIT}
        )
    if seed is not None and (
        not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63
    ):
        raise BattleActionError(
            _("seed: %(value)r, expected a whole number 0 – 2^63-1") % {"value": seed}
        )


def _resolve(battle: Battle, sides: list[BattleSide], seed: int, max_turns: int) -> ResolvePreview:
    fleets = field_battle(battle, sides)
    options = rule_options(battle)
    known = intel_known_classes(battle=battle)
    fixed = {f.start.ship_id for fleet in fleets for f in fleet if f.platform}
    result = fight(
        [[f.start for f in fleet] for fleet in fleets],
        fixed=fixed,
        seed=seed,
        max_turns=max_turns,
        options=options,
        known_classes=known,
    )
    rows = [
        setup_row(fleets, seed=seed, max_turns=max_turns, options=options, known_classes=known),
        *engine_rows(result),
    ]
    names = {s.faction.slug: s.faction.name for s in sides}
    conclusion = conclusion_from_engine(
        fleets=fleets,
        final=result.ships,
        rows=rows,
        winner=result.winner,
        outcome=outcome_message(result, names, seed),
        game_turns=result.turns,
        seed=seed,
    )
    return ResolvePreview(conclusion, result, seed, max_turns)


def battle_resolve_preview(
    *, battle: Battle, seed: int | None = None, max_turns: int = 20
) -> ResolvePreview:
    """Fight a draft battle as :func:`battle_resolve` would, writing nothing: the outcome,
    every unit's losses and fate, and the log. ``seed`` None: the battle's stored seed
    (the preview of what concluding gives), else a random one. Raises
    :class:`BattleActionError` as :func:`battle_resolve` does."""
    _check_args(seed, max_turns)
    if battle.status == Battle.Status.CONCLUDED:
        raise BattleActionError(
            _("%(battle)s is already concluded") % {"battle": battle_label(battle)}
        )
    refuse_turn_play(battle)
    if seed is None:
        seed = battle.seed if battle.seed is not None else secrets.randbits(SEED_BITS)
    return _resolve(battle, battle_sides(battle), seed, max_turns)


def battle_reseed(*, battle: Battle, reason: str, user: Any) -> int:
    """Give a draft battle a new random dice seed for its auto-resolve, with the written
    ``reason`` kept in the battle's timeline; returns the seed. A first
    seed (none stored yet) needs no reason. Raises :class:`BattleActionError` for a
    concluded battle or an empty reason when a seed was already drawn; ``user`` must
    organise the campaign (:class:`~campaign.core.refusals.Refused`)."""
    require_battle_organiser(user, battle.campaign)
    from django.db import transaction

    reason = (reason or "").strip()
    with transaction.atomic():
        b = locked(battle)
        if b.seed is not None and not reason:
            raise BattleActionError(
                _(
                    "%(battle)s.reason: re-running the auto-resolve with another seed needs "
                    "a written reason"
                )
                % {"battle": battle_label(b)}
            )
        old, b.seed = b.seed, secrets.randbits(SEED_BITS)
        b.save(update_fields=["seed", "updated_at"])
        line = reason or message("battle.first_seed")
        BattleAction.objects.create(
            battle=b,
            user=user if getattr(user, "is_authenticated", False) else None,
            kind=BattleAction.Kind.RESEED,
            summary=text_of(line),
            summary_message=message_of(line),
            data={"old_seed": old, "seed": b.seed},
        )
    battle.seed = b.seed
    return b.seed


def battle_resolve(
    *, battle: Battle, user: Any, seed: int | None = None, max_turns: int = 20
) -> Battle:
    """Fight a draft ``battle`` with the rules engine and conclude it; returns the battle.

    Every ship participant fights in its current damage state; a light-unit group carried
    by a fielded ship flies from one of its bays (the one whose squadron has the group's
    name, else the first free one) with its craft left; a group with no carrier (station
    or colony defence) fights as a fixed platform (``battles.services.fielding``). Craft
    lost (shot down, aboard a destroyed carrier, batteries destroyed) go to the
    participants and the groups' ``strength``.

    ``seed`` (default: ``battle.seed`` when set, else a random one) drives the dice; it is
    stored on the battle. ``max_turns`` (1–50) caps the game turns. Tactics:
    ``battles/rules/ai/``; rule options: the campaign's (§16). Written by
    :func:`battles.services.battle_conclude` (one transaction, ships locked, snapshot,
    intel, report queued). Raises :class:`BattleActionError` when the battle is
    concluded, has not exactly two sides with units, a ship is already destroyed or
    captured, a class design cannot be built (naming ship and field), the campaign's rule
    options are invalid or ``max_turns`` is out of range. Nothing is written then.
    ``user`` must organise the campaign (:class:`~campaign.core.refusals.Refused`).
    """
    require_battle_organiser(user, battle.campaign)
    _check_args(seed, max_turns)

    def build(b: Battle, sides: list[BattleSide]) -> Conclusion:
        refuse_turn_play(b)
        s = seed
        if s is None:
            s = b.seed if b.seed is not None else secrets.randbits(SEED_BITS)
        return _resolve(b, sides, s, max_turns).conclusion

    return battle_conclude(battle=battle, conclusion=build, user=user)


def event_rows(*, battle: Battle) -> list[dict[str, Any]]:
    """The battle's stored log as row dicts ``{sequence, game_turn, phase, kind, summary,
    data}``, in order."""
    return list(
        Event.objects.filter(battle=battle)
        .order_by("sequence")
        .values("sequence", "game_turn", "phase", "kind", "summary", "data")
    )


def _replay_ship(ship_id: str, spec: Mapping[str, Any]) -> ShipState:
    """A ship as the setup row stored it: design, carried damage, squadrons aboard."""
    ship = ShipState.from_design(
        spec["design"],
        ship_id=ship_id,
        side=spec["side"],
        name=spec["name"],
        hull_lost=spec["hull_lost"],
        armour_lost=spec["armour_lost"],
        crew_lost=spec["crew_lost"],
        systems_lost=spec["systems_lost"],
    )
    for bay_id, squadron in spec.get("squadrons", {}).items():
        load_bay(ship, bay_id, squadron["craft"])
    return ship


#: Replays of set-ups that another layer wrote, by the set-up's marker key: turn-by-turn
#: play (``battles.play``, above this layer) registers ``"turn_by_turn"`` in
#: ``BattlesConfig.ready``, so :func:`battle_replay` replays every engine-fought battle.
SETUP_REPLAYS: dict[str, Callable[..., list[dict[str, Any]]]] = {}


def battle_replay(*, battle: Battle) -> list[dict[str, Any]]:
    """Fight a resolved battle again from its ``setup`` row alone (designs, carried damage,
    seed, options, turn cap, fixed platforms as stored) and return the log it gives, in
    the shape of :func:`event_rows`; equal to the stored log unless the engine has changed
    since. Reads only; raises :class:`BattleActionError` when the battle has no setup row,
    or when the setup row cannot be read (a missing key, a wrong type, an unknown rule
    option or a design the engine refuses): ``battle N: stored setup is unreadable
    (...)``."""
    setup = Event.objects.filter(battle=battle, kind="setup").order_by("sequence").first()
    if setup is None:
        raise BattleActionError(
            _("%(battle)s was not resolved: no setup") % {"battle": battle_label(battle)}
        )
    data = setup.data
    if isinstance(data, dict):
        # A set-up this module did not write (a battle fought from both sides' orders) is
        # replayed by the layer that wrote it (SETUP_REPLAYS).
        for marker, replay in SETUP_REPLAYS.items():
            if data.get(marker):
                return replay(battle=battle)
    try:
        fleets = [
            [_replay_ship(sid, data["ships"][sid]) for sid in fleet] for fleet in data["fleets"]
        ]
        outcome = fight(
            fleets,
            fixed=set(data.get("fixed", [])),
            seed=data["seed"],
            max_turns=data["max_turns"],
            options=RuleOptions.from_dict(data["options"]),
            known_classes=data.get("known_classes", {}),
        )
    except (KeyError, IndexError, TypeError, AttributeError, ValueError, RulesError) as exc:
        raise BattleActionError(
            _("battle %(battle)s: stored setup is unreadable (%(error)s)")
            % {"battle": battle.pk, "error": f"{type(exc).__name__}: {exc}"}
        ) from exc
    first = {k: getattr(setup, k) for k in ("game_turn", "phase", "kind", "summary", "data")}
    return numbered([first, *engine_rows(outcome)])
