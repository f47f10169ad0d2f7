"""The one place turn-by-turn play reaches into the battle services (``battles.services``):
reading the battle's rows into engine ships, the set-up and log rows, the timeline, and
concluding through :func:`battles.services.battle_conclude`.

=====================  ==================================================================
here                   battles.services
=====================  ==================================================================
``locked``             ``common.locked``
``battle_sides``       ``common.battle_sides``
``field``              ``fielding.field_battle``
``options``            ``fielding.rule_options``
``setup_row``          ``engine_log.setup_row``
``log_rows``           ``engine_log.numbered([setup, *engine_log.engine_rows(result)])``
``turn_rows``          ``engine_log.engine_rows`` of one turn's events, dice numbered on
``append_log``         the ``Event`` rows after the last one stored
``replay_ship``        ``resolve._replay_ship``
``deploy``             ``fielding.deploy`` (fixed platforms stand still)
``conclude``           ``battle_conclude`` with ``resolve.conclusion_from_engine``
``timeline``           a ``BattleAction`` of kind ``ORDER``
=====================  ==================================================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import Max
from django.utils.translation import gettext as _

from battles.models import Battle, BattleAction, BattleSide, Event
from battles.rules import ai
from battles.rules.options import RuleOptions
from battles.rules.ships import ShipState
from battles.rules.turn import BattleState
from battles.services import (
    BattleActionError,
    battle_conclude,
    conclusion_from_engine,
    field_battle,
)
from battles.services.common import BULK, battle_label
from battles.services.common import battle_sides as _battle_sides
from battles.services.common import locked as _locked
from battles.services.conclude import Conclusion
from battles.services.engine_log import engine_rows, numbered
from battles.services.engine_log import setup_row as _setup_row
from battles.services.fielding import Fielded, rule_options
from battles.services.fielding import deploy as _deploy
from battles.services.resolve import _replay_ship, outcome_message
from campaign.core.messages import StoredMessage, message, text_of

__all__ = [
    "append_log",
    "battle_sides",
    "conclude",
    "deploy",
    "field",
    "locked",
    "log_rows",
    "options",
    "replay_ship",
    "setup_row",
    "stored_rows",
    "timeline",
    "turn_rows",
    "write_log",
]


def locked(battle: Battle) -> Battle:
    """The battle row locked for the transaction; ``BattleActionError`` when concluded."""
    return _locked(battle)


def battle_sides(battle: Battle) -> list[BattleSide]:
    """The sides in order with their participants (ships and classes loaded)."""
    return _battle_sides(battle)


def field(battle: Battle, sides: list[BattleSide]) -> list[list[Fielded]]:
    """The units per side as the auto-resolve fields them (``BattleActionError`` naming
    the ship): ships, carried squadrons, station and colony platforms."""
    return field_battle(battle, sides)


def options(battle: Battle) -> RuleOptions:
    """The campaign's rule options (§16)."""
    return rule_options(battle)


def setup_row(fleets: list[list[Fielded]], **kwargs: Any) -> dict[str, Any]:
    """The ``setup`` log row (seed, max_turns, options, known_classes as keywords)."""
    return _setup_row(fleets, **kwargs)


def replay_ship(ship_id: str, spec: Mapping[str, Any]) -> ShipState:
    """A unit as the set-up row stored it."""
    return _replay_ship(ship_id, spec)


def deploy(fleets: Sequence[Sequence[ShipState]], setup: Mapping[str, Any]) -> None:
    """Place both fleets as the auto-resolve does (§1); the set-up's ``fixed`` platforms
    (station and colony defences) stand ahead of their fleet at speed 0."""
    _deploy(list(fleets[0]), list(fleets[1]), set(setup.get("fixed", ())))


def _engine_rows(setup: Mapping[str, Any], state: BattleState) -> list[dict[str, Any]]:
    result = ai.BattleResult(
        None,
        "",
        state.turn,
        setup["data"]["seed"],
        state.events,
        state.ships,
        dice=state.dice,
        roll_marks=state.roll_marks,
    )
    return [dict(setup), *engine_rows(result)]


def log_rows(setup: Mapping[str, Any], state: BattleState) -> list[dict[str, Any]]:
    """The battle's whole log as numbered rows: the set-up row, then every engine event
    with each die just before the event it decides (as the auto-resolve stores it)."""
    return numbered(_engine_rows(setup, state))


def turn_rows(
    state: BattleState, dice_base: int, *, hold_dice: bool = True
) -> list[dict[str, Any]]:
    """The log rows (no ``sequence``) of the events ``state`` holds, each die just before
    the event it decides, numbered from ``dice_base + 1`` (the dice the log holds before
    ``state.dice``'s first). ``hold_dice``: the dice rolled after the last event are left
    out (they are stored with the next event, as the replay from the set-up stores
    them); False at the end of the battle (they take the last event's turn and phase)."""
    result = ai.BattleResult(
        None,
        "",
        state.turn,
        0,
        state.events,
        state.ships,
        dice=state.dice,
        roll_marks=state.roll_marks,
    )
    rows = engine_rows(result)
    if hold_dice:
        held = state.dice.rolled - (state.roll_marks[-1] if state.roll_marks else 0)
        rows = rows[: len(rows) - held] if state.events else []
    if dice_base:
        for row in rows:
            if row["kind"] == "roll":
                row["data"]["n"] += dice_base
    return rows


def append_log(battle: Battle, rows: list[dict[str, Any]]) -> None:
    """Store ``rows`` (no ``sequence``) as ``Event`` rows after the battle's last one."""
    last = Event.objects.filter(battle=battle).aggregate(last=Max("sequence"))["last"] or 0
    Event.objects.bulk_create(
        (Event(battle=battle, sequence=last + i, **row) for i, row in enumerate(rows, 1)),
        batch_size=BULK,
    )


def stored_rows(battle: Battle) -> list[dict[str, Any]]:
    """The battle's log as stored (``kind`` and ``data`` of every row, in order)."""
    return list(Event.objects.filter(battle=battle).order_by("sequence").values("kind", "data"))


def write_log(battle: Battle, rows: list[dict[str, Any]]) -> None:
    """Replace the battle's ``Event`` rows by ``rows`` (numbered) while it is played."""
    Event.objects.filter(battle=battle).delete()
    Event.objects.bulk_create((Event(battle=battle, **row) for row in rows), batch_size=BULK)


def timeline(battle: Battle, user: Any, summary: StoredMessage, **data: Any) -> None:
    """One entry of the battle's timeline (kind ``order``): start, orders submitted (never
    their content: the other side reads the timeline's organiser view only, but the
    orders stay out of it anyway), turn played, end. ``summary``: a message
    (``campaign.core.messages``), stored with its English."""
    BattleAction.objects.create(
        battle=battle,
        user=user if getattr(user, "is_authenticated", False) else None,
        kind=BattleAction.Kind.ORDER,
        summary=text_of(summary),
        summary_message=summary,
        data=data,
    )


def _ended_outcome(
    winner: str | None, names: Mapping[str, str], turns: int, seed: int
) -> StoredMessage:
    """The outcome of a battle the organiser ended (judged on surviving strength)."""
    head = (
        message("outcome.victory", side=names[winner], reason="judged")
        if winner
        else message("outcome.draw")
    )
    return message("outcome.ended", head=head, n=turns, seed=seed)


def conclude(
    battle: Battle,
    setup: Mapping[str, Any],
    state: BattleState,
    *,
    winner: str | None,
    reason: str,
    rows: list[dict[str, Any]],
    user: Any = None,
    ended_by_organiser: bool = False,
) -> Battle:
    """Conclude ``battle`` from the engine's final ``state`` through
    ``battles.services.battle_conclude`` (in the caller's transaction): every unit's
    losses and fate, ships' damage and status, craft lost, winner, outcome, intel,
    snapshot, timeline, report queued. ``rows``: the battle's whole log, already stored
    (:func:`stored_rows`; the squadrons' craft left are read from it): it is kept as is.
    ``reason``: ``destruction`` / ``withdrawal`` / ``mutual`` / ``turn-limit``;
    ``ended_by_organiser``: the outcome says so (not "at the turn limit"). Raises
    ``BattleActionError`` as ``battle_conclude`` does, or naming a unit added to the
    battle after the set-up was frozen (nothing written then)."""
    seed = setup["data"]["seed"]

    def build(b: Battle, sides: list[BattleSide]) -> Conclusion:
        names = {s.faction.slug: s.faction.name for s in sides}
        result = ai.BattleResult(winner, reason, state.turn, seed, [], {})
        outcome = outcome_message(result, names, seed, play=True)
        if ended_by_organiser:  # judged as at the turn limit, but not at it
            outcome = _ended_outcome(winner, names, state.turn, seed)
        fleets = field_battle(b, sides)
        # A unit added to the battle (admin) after the set-up was frozen has no final state.
        added = [
            f.start.name for fleet in fleets for f in fleet if f.start.ship_id not in state.ships
        ]
        if added:
            raise BattleActionError(
                _(
                    "%(battle)s: %(ships)s joined the battle after its turn-by-turn play "
                    "started; remove them or start the play again"
                )
                % {"battle": battle_label(b), "ships": ", ".join(added)}
            )
        conclusion = conclusion_from_engine(
            fleets=fleets,
            final=state.ships,
            rows=rows,
            winner=winner,
            outcome=outcome,
            game_turns=state.turn,
            seed=seed,
            mode=Battle.Mode.TURNS,
        )
        conclusion.events = []  # the log was stored turn by turn: kept as it is
        return conclusion

    return battle_conclude(battle=battle, conclusion=build, user=user)
