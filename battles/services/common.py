"""What every battle service shares: the error, the limits, reading and locking a battle.

Set-up, record, resolve and conclude live in their own modules of this package and
import from here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from battles.models import Battle, BattleSide, Participant
from battles.models.turn_orders import TurnPlay
from battles.refs import ship_ref
from battles.rules.errors import RulesError
from battles.rules.ships import ShipState
from factions.models import Ship

#: Upper bound on ``max_turns`` (a battle past 50 turns is a stalemate, not a fight).
MAX_TURNS_LIMIT = 50
SEED_BITS = 62  # fits Battle.seed (a signed 64-bit column)
BULK = 500
# What building a ship from a malformed design document can raise (DesignError names the
# field; the others come from entries of the wrong type).
DESIGN_ERRORS = (RulesError, KeyError, TypeError, ValueError, AttributeError)


class BattleActionError(RulesError):
    """A battle that cannot be set up, resolved, recorded, concluded or reopened as asked.
    The message names the battle, the participant (ship) and the field; nothing has been
    written. (A ``RulesError``, so the API answers with the message.)"""


def locked(battle: Battle, *, draft: bool = True) -> Battle:
    """The battle row again, locked for this transaction (``select_for_update``); with
    ``draft`` refused when concluded, else refused when not concluded."""
    fresh = Battle.objects.select_for_update().select_related("campaign").get(pk=battle.pk)
    if draft and fresh.status == Battle.Status.CONCLUDED:
        raise BattleActionError(
            _("%(battle)s is already concluded (%(mode)s); nothing changed")
            % {"battle": battle_label(fresh), "mode": fresh.get_mode_display()}
        )
    if not draft and fresh.status != Battle.Status.CONCLUDED:
        raise BattleActionError(_("%(battle)s is not concluded") % {"battle": battle_label(fresh)})
    return fresh


def refuse_turn_play(battle: Battle) -> None:
    """Raise :class:`BattleActionError` when ``battle`` is being fought turn by turn (a
    ``TurnPlay`` not ended): its result comes from both sides' orders
    (``battles.play.game_turns``), so auto-resolve, record entries and the resolve preview wait
    until the organiser ends the play."""

    play = TurnPlay.objects.filter(battle_id=battle.pk, ended=False).first()
    if play is not None:
        raise BattleActionError(
            _(
                "%(battle)s is being fought turn by turn (turn %(turn)s of at most "
                "%(max)s): end its turn-by-turn play first; nothing changed"
            )
            % {"battle": battle_label(battle), "turn": play.current_turn, "max": play.max_turns}
        )


def battle_sides(battle: Battle) -> list[BattleSide]:
    """The battle's sides in order, with faction, fleet and participants (ship, class,
    light units) loaded: three queries whatever the size."""
    participants = Participant.objects.select_related(
        "ship__ship_class", "ship__fleet", "light_units"
    ).order_by("pk")
    return list(
        BattleSide.objects.filter(battle=battle)
        .select_related("faction", "fleet")
        .prefetch_related(Prefetch("participants", queryset=participants))
        .order_by("order", "pk")
    )


def label(participant: Participant) -> str:
    """``participant 12 (Garuda)``: how errors name a participant."""
    unit = participant.ship or participant.light_units
    return _("participant %(id)s (%(unit)s)") % {"id": participant.pk, "unit": unit}


def battle_label(battle: Battle) -> str:
    """``battle 3 (Skirmish at Mieska)``: how errors name a battle (reader's language)."""
    return _("battle %(id)s (%(name)s)") % {"id": battle.pk, "name": battle.name}


def crew_lost_from_hull(crew_max: int, hull_max: int, hull_lost: int) -> int:
    """Crew factors lost with ``hull_lost`` of ``hull_max`` boxes, for a ship of
    ``crew_max`` crew factors: ``crew_max - ceil(crew_max × hull_left / hull_max)``
    (rules §4, D-9). Used where a result gives no crew figure: a battle
    recorded from the table, the sample campaign's fates."""
    return crew_max - math.ceil(crew_max * (hull_max - hull_lost) / max(hull_max, 1))


def count(where: str, entry: Mapping[str, Any], name: str, default: int | None = 0) -> Any:
    """``entry[name]`` as a whole number ≥ 0 (``default`` when absent); raises
    :class:`BattleActionError` naming ``where.name``."""
    value = entry.get(name, default)
    if value is None and default is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BattleActionError(
            _("%(field)s: %(value)r, expected a whole number ≥ 0")
            % {"field": f"{where}.{name}", "value": value}
        )
    return value


def engine_ship(ship: Ship, *, side: str, name: str | None = None) -> ShipState:
    """``ship`` as the engine fields it: its class design with the damage it carries
    (hull and armour boxes, crew factors, systems lost), under its engine id
    (``battles.refs.ship_ref``), on ``side`` (a faction slug, or any label for a check
    outside a battle), named ``name`` (the engine's own name when None).

    Raises one of :data:`DESIGN_ERRORS` when the design cannot be built; callers name
    the unit in their message."""
    return ShipState.from_design(
        ship.ship_class.design or {},
        ship_id=ship_ref(ship.pk),
        side=side,
        name=name,
        hull_lost=ship.hull_lost,
        armour_lost=ship.armour_lost,
        crew_lost=ship.crew_lost,
        systems_lost=list(ship.systems_lost or []),
    )
