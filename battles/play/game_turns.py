"""Services of turn-by-turn battles.

- :func:`turn_play_start` (organiser): freezes the set-up (designs, carried damage, seed,
  rule options, classes each side had met) as the battle's ``setup`` log row, deploys the
  fleets as the auto-resolve does (``ai.deploy``) and opens turn 1 for orders.
- :func:`turn_orders_submit` (a player of the side): stores that side's orders for the
  current turn, checked by the engine's phase 1 first; when both sides are in, the turn is
  played at once (:func:`turn_play_advance`).
- :func:`turn_play_advance`: plays the current turn when both sides have ordered, or when
  the deadline has passed or the organiser forces it: a side without orders then takes the
  auto-resolve tactics (``ai.ship_orders``/``ai.ship_fire``), logged as an ``auto-orders``
  event and stored as ``TurnOrders(auto=True)``.
- :func:`turn_play_end` (organiser): ends the battle now, judged as at the turn limit.

The engine's state is stored after every turn (``TurnPlay.state``,
``battles.play.engine_state``) and the next turn starts from it; the turn's events and dice
are appended to the battle's ``Event`` rows, so a turn costs the same whichever turn it is.
``battles.play.replay.rebuild`` replays the battle from the set-up and the stored orders of
every turn played: it gives the same log (tested), checks a stored battle
(:func:`turn_battle_replay`) and builds the state once for a play started before states were
stored. The set-up records which engine plays it (``TurnPlay.engine_hash``): another engine
(a deploy mid-battle) is refused (:class:`EngineChanged`), and only the organiser's end
remains. Turns whose deadline passed are played by :func:`turns_play_due` (the scheduled
task and ``manage.py play_due_turns``), never by a page view. Damage control in phase 11
follows the auto-resolve plan (``ai.crew_plan``) for every ship: crew assignment is not part
of a player's orders.

When the battle is over (one side has no ship in action, the turn cap, or the organiser
ends it) it concludes through :func:`_finish` → ``engine_io.conclude`` →
``battles.services.battle_conclude``, the one place that writes the ships' new states
(``battles.play.engine_io`` lists every service it calls). The battle's mode is
``Battle.Mode.TURNS`` from the start; start, orders submitted (not their content), turn
played and end are entries of its timeline (``BattleAction`` of kind ``order``).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from battles.log.refusals import rules_error_text
from battles.models import Battle, BattleSide, Event
from battles.models.turn_orders import TurnOrders, TurnPlay
from battles.play import engine_io, engine_state
from battles.play.orders import TurnOrdersError, parse_side_orders
from battles.play.replay import (
    play_one,
    rebuild,
    replayed,
    resume,
    turn_state,
)
from battles.rules.errors import RulesError
from battles.rules.turn import BattleState, ShipOrders, play_turn
from battles.services import MAX_TURNS_LIMIT, BattleActionError
from battles.services.common import battle_label
from battles.services.intel import intel_known_classes
from battles.services.permissions import require_battle_organiser, require_side_or_organiser
from battles.signals import battle_turn_opened, battle_turn_played
from campaign.core.actors import SYSTEM
from campaign.core.messages import message

__all__ = [
    "EngineChanged",
    "TurnOrdersError",
    "rebuild",
    "turn_battle_replay",
    "turn_deadline_set",
    "turn_orders_submit",
    "turn_play_advance",
    "turn_play_end",
    "turn_play_start",
    "turn_state",
    "turns_play_due",
]

_SEED_BITS = 62
logger = logging.getLogger(__name__)


class EngineChanged(BattleActionError):
    """The rules engine is not the one that set the battle up: its turns cannot go on."""


def turn_battle_replay(*, battle: Battle) -> list[dict[str, Any]]:
    """The log a turn-by-turn battle gives when replayed from its set-up and stored orders
    (shape of ``battles.services.event_rows``); equal to the stored log unless the engine
    changed. Raises ``BattleActionError`` when the battle was not played turn by turn."""
    play = TurnPlay.objects.filter(battle=battle).first()
    if play is None:
        raise BattleActionError(
            _("%(battle)s was not played turn by turn") % {"battle": battle_label(battle)}
        )
    state = replayed(play)
    if play.ended:
        _log_result(state, _judge(state, ended_by_organiser=_ended_early(battle, play)))
    return engine_io.log_rows(play.setup, state)


def _ended_early(battle: Battle, play: TurnPlay) -> bool:
    last = Event.objects.filter(battle=battle, kind="result").order_by("-sequence").first()
    return bool(last and last.data.get("reason") == "ended")


# ---- outcome ----------------------------------------------------------------------------


@dataclass
class _Judgement:
    winner: str | None
    reason: str  # destruction / withdrawal / mutual / turn-limit / ended
    strength: dict[str, float]


def _strength(state: BattleState, side: str) -> float:
    return sum(s.mass * s.hull_left / s.hull_max for s in state.in_action(side) if s.hull_max > 0)


def _over(state: BattleState) -> bool:
    present = {ship.side for ship in state.in_action()}
    return len([s for s in state.sides if s in present]) < 2


def _judge(state: BattleState, *, ended_by_organiser: bool = False) -> _Judgement:
    """Who won, as ``ai.resolve_battle`` judges it; an early end is judged like the turn
    limit (more surviving strength, mass × hull fraction left)."""
    present = {ship.side for ship in state.in_action()}
    alive = [side for side in state.sides if side in present]
    strength = {side: round(_strength(state, side), 6) for side in state.sides}
    a, b = state.sides
    if len(alive) < 2:
        if not alive:
            return _Judgement(None, "mutual", strength)
        gone = any(s.withdrawn for s in state.ships.values() if s.side != alive[0])
        return _Judgement(alive[0], "withdrawal" if gone else "destruction", strength)
    reason = "ended" if ended_by_organiser else "turn-limit"
    if strength[a] == strength[b]:
        return _Judgement(None, reason, strength)
    return _Judgement(a if strength[a] > strength[b] else b, reason, strength)


def _log_result(state: BattleState, judged: _Judgement) -> None:
    state.log(
        state.turn and 11,
        "result",
        f"{judged.winner or 'nobody'} wins ({judged.reason}) after {state.turn} turn(s)",
        winner=judged.winner,
        reason=judged.reason,
        strength=judged.strength,
    )


# ---- services ---------------------------------------------------------------------------


def _play_of(battle: Battle, *, playing: bool = True) -> TurnPlay:
    """The battle's play, locked; refused when there is none, it is over, or (``playing``:
    a turn may be played) another engine than the set-up's is running."""
    play = TurnPlay.objects.select_for_update().filter(battle=battle).first()
    if play is None:
        raise BattleActionError(
            _("%(battle)s is not being played turn by turn") % {"battle": battle_label(battle)}
        )
    if play.ended:
        raise BattleActionError(_("%(battle)s is over") % {"battle": battle_label(battle)})
    if playing:
        _check_engine(battle, play)
    return play


def _check_engine(battle: Battle, play: TurnPlay) -> None:
    """Refuse (:class:`EngineChanged`) a play set up by another rules engine: its next
    turn would not follow from the turns already played."""
    now = engine_state.engine_hash()
    if play.engine_hash and play.engine_hash != now:
        raise EngineChanged(
            _(
                "%(battle)s was set up with another version of the rules engine (%(then)s; "
                "this one is %(now)s): its turns cannot be played on. The organiser may "
                "end the battle as it stands"
            )
            % {"battle": battle_label(battle), "then": play.engine_hash[:12], "now": now[:12]}
        )


def _check_deadline(deadline: datetime | None) -> None:
    if deadline is not None and deadline <= timezone.now():
        # Read as the form takes it (UTC), not as an ISO timestamp a
        # player would not recognise.
        shown = formats.date_format(timezone.localtime(deadline, UTC), "SHORT_DATETIME_FORMAT")
        raise BattleActionError(
            _("deadline: %(deadline)s (%(tz)s) is past; give a future time")
            % {"deadline": shown, "tz": "UTC"}
        )


def _person(user: Any) -> Any:
    """``user`` for a column naming a person; None for the system actor (no such row)."""
    return user if getattr(user, "is_authenticated", False) else None


#: The longest time a turn may be given (``turn_interval``).
MAX_TURN_INTERVAL = timedelta(days=30)


def _check_interval(interval: timedelta | None) -> None:
    if interval is not None and not timedelta(minutes=1) <= interval <= MAX_TURN_INTERVAL:
        hours = round(interval.total_seconds() / 3600, 2)
        raise BattleActionError(
            _("turn_interval: %(hours)s hours, expected from one minute to %(days)s days")
            % {"hours": int(hours) if hours.is_integer() else hours, "days": MAX_TURN_INTERVAL.days}
        )


def turn_play_start(
    *,
    battle: Battle,
    user: Any,
    seed: int | None = None,
    max_turns: int = 20,
    deadline: datetime | None = None,
    turn_interval: timedelta | None = None,
) -> TurnPlay:
    """Start fighting a draft ``battle`` turn by turn; returns its ``TurnPlay``.

    Freezes the set-up (``battles.services.engine_log.setup_row``: designs, carried
    damage, squadrons aboard, fixed platforms, seed, rule options, classes each side had
    met) and writes it and the deployment as the battle's log; the battle's mode becomes
    ``Battle.Mode.TURNS``. ``seed``: default the battle's, else random; ``max_turns``
    1–50; ``deadline``: when turn 1 is played even without both sides' orders (None: no
    deadline; in the past: refused); ``turn_interval``: the time each turn is given (one
    minute to 30 days; None: the organiser sets each deadline): each turn played sets the
    next deadline that long after, and turn 1's when ``deadline`` is None. A battle whose
    earlier turn-by-turn play ended and that was reopened (``battle_reopen``: a draft
    again) starts afresh: the old play and
    orders are deleted. Raises ``BattleActionError`` for a concluded battle, one already
    being played, not exactly two sides with units, a ship
    destroyed or captured, or a bad argument; nothing is written then.
    """
    require_battle_organiser(user, battle.campaign)
    if not isinstance(max_turns, int) or not 1 <= max_turns <= MAX_TURNS_LIMIT:
        raise BattleActionError(
            _("max_turns: %(value)r, expected 1–%(max)s")
            % {"value": max_turns, "max": MAX_TURNS_LIMIT}
        )
    if seed is not None and (not isinstance(seed, int) or not 0 <= seed < 2**63):
        raise BattleActionError(
            _("seed: %(value)r, expected a whole number 0 – 2^63-1") % {"value": seed}
        )
    _check_deadline(deadline)
    _check_interval(turn_interval)
    if deadline is None and turn_interval is not None:
        deadline = timezone.now() + turn_interval
    with transaction.atomic():
        battle = engine_io.locked(battle)
        earlier = TurnPlay.objects.filter(battle=battle).first()
        if earlier is not None and not earlier.ended:
            raise BattleActionError(
                _("%(battle)s is already being played turn by turn")
                % {"battle": battle_label(battle)}
            )
        if earlier is not None:  # a concluded play, reopened since: fought again afresh
            TurnOrders.objects.filter(battle=battle).delete()
            earlier.delete()
        sides = engine_io.battle_sides(battle)
        fleets = engine_io.field(battle, sides)
        options = engine_io.options(battle)
        if seed is None:
            seed = battle.seed if battle.seed is not None else secrets.randbits(_SEED_BITS)
        setup = engine_io.setup_row(
            fleets,
            seed=seed,
            max_turns=max_turns,
            options=options,
            known_classes=intel_known_classes(battle=battle),
        )
        setup["data"]["turn_by_turn"] = True
        deployed = rebuild(setup["data"], [])
        play = TurnPlay.objects.create(
            battle=battle,
            setup=setup,
            max_turns=max_turns,
            deadline=deadline,
            turn_interval=turn_interval,
            started_by=_person(user),
            engine_hash=engine_state.engine_hash(),
            state=engine_state.dump(deployed),
        )
        Battle.objects.filter(pk=battle.pk).update(seed=seed, mode=Battle.Mode.TURNS)
        rows = [setup, *engine_io.turn_rows(deployed, 0)]
        engine_io.write_log(battle, [{"sequence": i, **r} for i, r in enumerate(rows, 1)])
        engine_io.timeline(
            battle,
            user,
            message("battle.play_started", seed=seed, n=max_turns),
            seed=seed,
            max_turns=max_turns,
            restarted=earlier is not None,
        )
        battle_turn_opened.send(sender=Battle, battle=battle, turn=1, deadline=deadline)
    return play


def turn_orders_submit(
    *, battle: Battle, side: BattleSide, orders: Mapping[str, Any], user: Any
) -> TurnOrders:
    """Store ``side``'s orders for the current turn (replacing what it sent before) and,
    when the other side's are in too, play the turn. ``orders``: engine ship id -> that
    ship's orders (``battles.play.orders``); ships left out keep speed and heading and
    hold fire.

    Checked before anything is stored: each ship is in the battle, of this side and still
    in action (:class:`TurnOrdersError` naming the ship), and the engine's phase 1 accepts
    the orders as written (its ``RulesError`` message names the ship). Raises
    ``BattleActionError`` when the battle is not being played or is over;
    :class:`~campaign.core.refusals.Refused` unless ``user`` plays ``side`` or organises
    the campaign.
    """
    require_side_or_organiser(user, battle, side.pk)
    with transaction.atomic():
        battle = engine_io.locked(battle)
        play = _play_of(battle)
        if side.battle_id != battle.pk:
            raise BattleActionError(
                _("side %(side)s is not a side of battle %(battle)s")
                % {"side": side.pk, "battle": battle.pk}
            )
        state = turn_state(play=play)
        slug = side.faction.slug
        names = {sid: spec["name"] for sid, spec in play.setup["data"]["ships"].items()}
        parsed = parse_side_orders(state, slug, orders, names=names)
        # Phase 1 of the engine on a throwaway state: the other side holds still.
        trial = {**{s.ship_id: ShipOrders() for s in state.in_action()}, **parsed}
        try:
            play_turn(state, trial)
        except RulesError as exc:
            raise TurnOrdersError(
                _("%(error)s; nothing stored") % {"error": rules_error_text(exc)}
            ) from exc
        stored, _created = TurnOrders.objects.update_or_create(
            battle=battle,
            side=side,
            game_turn=play.current_turn,
            defaults={"orders": dict(orders), "auto": False, "submitted_by": _person(user)},
        )
        # The timeline says who ordered, never what (the other side must not learn it).
        engine_io.timeline(
            battle,
            user,
            message("battle.orders", side=side.faction.name, n=play.current_turn),
            side=slug,
            game_turn=play.current_turn,
        )
        _advance(battle, play, force=False, user=user)
    return stored


def turn_play_advance(*, battle: Battle, user: Any, force: bool = False) -> bool:
    """Play the current turn if both sides have ordered, or if ``force`` (the organiser)
    or the deadline has passed: a side without orders then takes the auto-resolve tactics.
    Returns True when a turn was played. Concludes the battle when it is over. ``user``:
    who forced it (timeline; ``campaign.core.actors.SYSTEM`` for the deadline task)."""
    with transaction.atomic():
        battle = engine_io.locked(battle)
        play = _play_of(battle)
        return _advance(battle, play, force=force, user=user)


def _advance(battle: Battle, play: TurnPlay, *, force: bool, user: Any = None) -> bool:
    sides = engine_io.battle_sides(battle)
    given = {
        o.side_id: o for o in TurnOrders.objects.filter(battle=battle, game_turn=play.current_turn)
    }
    due = play.deadline is not None and play.deadline <= timezone.now()
    if len(given) < len(sides) and not (force or due):
        return False
    for side in sides:
        if side.pk not in given:
            given[side.pk] = TurnOrders.objects.create(
                battle=battle, side=side, game_turn=play.current_turn, auto=True
            )
    state, dice_base, replayed = resume(play)
    play.turns_played += 1
    # The next turn's deadline carries on at the play's pace; without one the organiser
    # sets each turn's.
    play.deadline = timezone.now() + play.turn_interval if play.turn_interval else None
    record = {o.side.faction.slug: None if o.auto else o.orders for o in given.values()}
    try:
        play_one(state, record)
    except RulesError as exc:
        raise BattleActionError(
            _("battle %(battle)s: turn %(turn)s cannot be played (%(error)s)")
            % {"battle": battle.pk, "turn": play.turns_played, "error": rules_error_text(exc)}
        ) from exc
    auto = sorted(o.side.faction.slug for o in given.values() if o.auto)
    engine_io.timeline(
        battle,
        user,
        # The timeline names the factions; ``auto_sides`` keeps the engine's side labels.
        message(
            "battle.turn_played",
            n=play.turns_played,
            sides=", ".join(sorted(o.side.faction.name for o in given.values() if o.auto)),
        ),
        game_turn=play.turns_played,
        auto_sides=auto,
    )
    battle_turn_played.send(sender=Battle, battle=battle, turn=play.turns_played)
    if _over(state) or play.turns_played >= play.max_turns:
        _finish(battle, play, state, dice_base, replayed, ended_by_organiser=False, user=user)
    else:
        _store_turn(battle, play, state, dice_base, replayed)
    play.save(update_fields=["turns_played", "deadline", "ended", "state"])
    if not play.ended:
        battle_turn_opened.send(
            sender=Battle, battle=battle, turn=play.turns_played + 1, deadline=play.deadline
        )
    return True


def _store_turn(
    battle: Battle, play: TurnPlay, state: BattleState, dice_base: int, replayed: bool
) -> None:
    """Append the turn's events and dice to the log and keep the engine state. A state
    ``replayed`` from the set-up holds the whole log: it is written whole, once."""
    _store_rows(battle, play, engine_io.turn_rows(state, dice_base), replayed)
    play.state = engine_state.dump(state, dice_base)


def _store_rows(battle: Battle, play: TurnPlay, rows: list[dict[str, Any]], replayed: bool) -> None:
    """Append ``rows`` to the log; after the set-up row, replacing the log, when they
    come from a state ``replayed`` from the set-up (they are the whole battle's)."""
    if replayed:
        numbered = [play.setup, *rows]
        engine_io.write_log(battle, [{"sequence": i, **r} for i, r in enumerate(numbered, 1)])
    else:
        engine_io.append_log(battle, rows)


def turns_play_due(*, now: datetime | None = None) -> list[int]:
    """Play the current turn of every battle whose orders deadline has passed (a side
    without orders takes the auto-resolve tactics). Returns the battle ids played. A
    battle concluded or ended meanwhile is skipped; each battle is its own transaction.
    Called by the ``battles.play_due_turns`` task and ``manage.py play_due_turns`` only.
    A battle set up by another rules engine (:class:`EngineChanged`) is logged as a
    warning and skipped, any other refusal logged as info; the other battles are played."""
    now = now or timezone.now()
    due = TurnPlay.objects.filter(ended=False, deadline__lte=now).select_related("battle")
    played = []
    for play in due:
        try:
            if turn_play_advance(battle=play.battle, user=SYSTEM):
                played.append(play.battle_id)
        except EngineChanged as exc:
            logger.warning("due turn of battle %s not played: %s", play.battle_id, exc)
        except BattleActionError as exc:
            # Concluded or ended by another request meanwhile, or refused: the next one.
            logger.info("due turn of battle %s not played: %s", play.battle_id, exc)
    return played


def turn_deadline_set(*, battle: Battle, user: Any, deadline: datetime | None) -> TurnPlay:
    """Set (or clear, None) the deadline of the turn being ordered. Refuses a time in the
    past (``BattleActionError`` naming the field); ``user`` must organise the campaign
    (:class:`~campaign.core.refusals.Refused`)."""
    require_battle_organiser(user, battle.campaign)
    _check_deadline(deadline)
    with transaction.atomic():
        battle = engine_io.locked(battle)
        play = _play_of(battle)
        play.deadline = deadline
        play.save(update_fields=["deadline"])
    return play


def turn_play_end(*, battle: Battle, user: Any) -> Battle:
    """End a turn-by-turn battle now (organiser ``user``): judged on surviving strength as
    at the turn limit, then concluded. Orders given for the turn not yet played are
    dropped."""
    with transaction.atomic():
        battle = engine_io.locked(battle)
        # Judging and concluding plays no turn: open even to a play of another engine.
        play = _play_of(battle, playing=False)
        TurnOrders.objects.filter(battle=battle, game_turn__gt=play.turns_played).delete()
        state, dice_base, replayed = resume(play)
        _finish(battle, play, state, dice_base, replayed, ended_by_organiser=True, user=user)
        play.save(update_fields=["ended", "state"])
    return Battle.objects.get(pk=battle.pk)


def _finish(
    battle: Battle,
    play: TurnPlay,
    state: BattleState,
    dice_base: int,
    replayed: bool,
    *,
    ended_by_organiser: bool,
    user: Any = None,
) -> None:
    """Log the result and conclude: the one call that writes the ships' new states
    (``engine_io.conclude`` → ``battles.services.battle_conclude``). The last events
    and every die left are stored first (the whole log, for a ``replayed`` state)."""
    judged = _judge(state, ended_by_organiser=ended_by_organiser)
    _log_result(state, judged)
    _store_rows(battle, play, engine_io.turn_rows(state, dice_base, hold_dice=False), replayed)
    play.ended = True
    play.state = None  # the battle is over: the ships' states are the conclusion's
    engine_io.timeline(
        battle,
        user,
        message("battle.play_ended", n=state.turn, reason=judged.reason),
        reason=judged.reason,
        winner=judged.winner,
    )
    engine_io.conclude(
        battle,
        play.setup,
        state,
        winner=judged.winner,
        reason="turn-limit" if judged.reason == "ended" else judged.reason,
        rows=engine_io.stored_rows(battle),
        user=user,
        ended_by_organiser=judged.reason == "ended",
    )
