"""Recording a battle of another game system (Starfinder, Star Wars Starship Battles,
Epic): the service that writes it, and the rows reports and standings read.

A battle of another system is recorded from the table, never resolved by the engine: its
sides are ordinary ``BattleSide`` rows (so standings, reports and the site count it like
any battle) and each unit's result is a ``SystemParticipant``. Critical states are checked
against the system's rules package (``battles.systems.sf_tokens``, ``battles.systems.swsb``).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from battles.models import Battle, BattleSide, Participant
from battles.models.other_games import OtherBattleError, SystemParticipant, SystemUnit
from battles.services.permissions import require_battle_organiser
from battles.signals import battle_results_recorded
from battles.systems import sf_tokens, swsb
from battles.systems.games import DEFAULT_SYSTEM, SYSTEMS
from factions.models import Faction

__all__ = [
    "SideInput",
    "UnitInput",
    "critical_choices",
    "other_battle_record",
    "system_unit_rows",
]

MAX_UNITS_PER_SIDE = 60
EPIC_STATE_MAX = 40


def critical_choices(game_system: str) -> list[str]:
    """The critical states a unit of ``game_system`` may carry after a battle: Starfinder
    ``<system>:<state>`` (seed 001), Star Wars Starship Battles the lasting effects of the
    critical table (seed 002); Epic bases have none listed (free labels)."""
    if game_system == "starfinder":
        states = [s for s in sf_tokens.CRITICAL_STATES if s != "nominal"]
        return [f"{system}:{state}" for system in sf_tokens.SYSTEMS for state in states]
    if game_system == "sw-starship-battles":
        return list(swsb.LASTING_EFFECTS)
    return []


def _criticals_label(field: str) -> str:
    """``units-2-critical_states`` as the reader sees it: "critical states of unit 3"."""
    row = re.match(r"units-(\d+)-", field)
    if row is None:
        return field
    return _("critical states of unit %(n)s") % {"n": int(row.group(1)) + 1}


def parse_criticals(game_system: str, text: str, field: str) -> list[str]:
    """Comma-separated critical states, checked against :func:`critical_choices`."""
    states = [s.strip() for s in (text or "").split(",") if s.strip()]
    allowed = critical_choices(game_system)
    for state in states:
        if allowed and state not in allowed:
            raise OtherBattleError(
                field,
                # The valid ones named: the form's list sits collapsed at its foot,
                # out of sight of this message.
                _("%(state)r is not a critical state of this system (one of: %(choices)s)")
                % {"state": state, "choices": ", ".join(allowed)},
                label=_criticals_label(field),
            )
        if len(state) > EPIC_STATE_MAX:
            raise OtherBattleError(
                field,
                _("%(state)r… is longer than %(max)s")
                % {"state": state[:20], "max": EPIC_STATE_MAX},
                label=_criticals_label(field),
            )
    if len(states) > 20:
        raise OtherBattleError(
            field, _("at most 20 critical states"), label=_criticals_label(field)
        )
    return states


@dataclass
class UnitInput:
    """One unit's result: from the roster (``unit``) or named on the spot (``name``)."""

    name: str
    fate: str = Participant.Fate.UNHARMED
    hull_lost: int = 0
    critical_states: list[str] = field(default_factory=list)
    kind: str = ""
    notes: str = ""
    unit: SystemUnit | None = None


@dataclass
class SideInput:
    faction: Faction
    units: list[UnitInput] = field(default_factory=list)
    is_winner: bool = False


def _unique_slug(campaign: Any, name: str) -> str:
    base = slugify(name)[:180] or "battle"
    taken = set(
        Battle.objects.filter(campaign=campaign, slug__startswith=base).values_list(
            "slug", flat=True
        )
    )
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    return slug


def other_battle_record(
    *,
    campaign: Any,
    name: str,
    game_system: str,
    sides: list[SideInput],
    outcome: str = "",
    narrative: str = "",
    location: str = "",
    date: datetime.date | None = None,
    campaign_turn: int | None = None,
    user: Any,
) -> Battle:
    """Write a concluded battle of ``game_system`` with its sides and unit results, in one
    transaction, and queue its report. Raises :class:`OtherBattleError` naming the field
    (nothing is written then); ``user`` must organise ``campaign``
    (:class:`~campaign.core.refusals.Refused`)."""
    require_battle_organiser(user, campaign)
    if game_system not in SYSTEMS or game_system == DEFAULT_SYSTEM:
        raise OtherBattleError("game_system", _("choose Starfinder, Star Wars or Epic"))
    if not name.strip():
        raise OtherBattleError("name", _("give the battle a name"))
    if len(sides) < 2 or len({s.faction.pk for s in sides}) != len(sides):
        raise OtherBattleError("sides", _("two different factions fight a battle"))
    if sum(s.is_winner for s in sides) > 1:
        raise OtherBattleError("winner", _("one winner at most"))
    fates = set(Participant.Fate.values)
    for i, side in enumerate(sides):
        if len(side.units) > MAX_UNITS_PER_SIDE:
            raise OtherBattleError(
                f"side {i + 1}",
                _("at most %(max)s units") % {"max": MAX_UNITS_PER_SIDE},
                label=_("side %(n)s") % {"n": i + 1},
            )
        for unit in side.units:
            if unit.fate not in fates:
                raise OtherBattleError("fate", _("%(fate)r is not a fate") % {"fate": unit.fate})
            if unit.unit is not None and (
                unit.unit.faction_id != side.faction.pk or unit.unit.game_system != game_system
            ):
                raise OtherBattleError(
                    "unit",
                    _("%(unit)s is not a %(system)s unit of %(faction)s")
                    % {"unit": unit.unit.name, "system": game_system, "faction": side.faction},
                )
    winner = next((s.faction for s in sides if s.is_winner), None)
    with transaction.atomic():
        battle = Battle(
            campaign=campaign,
            name=name.strip(),
            slug=_unique_slug(campaign, name),
            location=location,
            date=date,
            campaign_turn=campaign_turn,
            outcome=outcome,
            narrative=narrative,
            winner=winner,
            game_system=game_system,
            mode=Battle.Mode.RECORDED,
        )
        battle.mark_concluded()
        battle.save()
        rows = []
        for order, side in enumerate(sides):
            battle_side = BattleSide.objects.create(
                battle=battle, faction=side.faction, order=order
            )
            rows += [
                SystemParticipant(
                    side=battle_side,
                    unit=u.unit,
                    name=u.name or (u.unit.name if u.unit else ""),
                    kind=u.kind or (u.unit.kind if u.unit else ""),
                    fate=u.fate,
                    hull_lost=u.hull_lost,
                    critical_states=u.critical_states,
                    notes=u.notes,
                )
                for u in side.units
            ]
        SystemParticipant.objects.bulk_create(rows)
        battle_results_recorded.send(sender=Battle, battle=battle)
    return battle


def system_unit_rows(side: BattleSide) -> list[dict[str, Any]]:
    """The other-system units of ``side`` as report rows shaped like
    ``battles.reports.context._participant_row`` (critical states shown as systems lost), from
    the ``system_units`` prefetch when present."""
    fate_labels = dict(Participant.Fate.choices)
    return [
        {
            "participant": p,
            "ship": None,
            "light_units": None,
            "name": p.name,
            "unit_class": p.kind,
            "fate": p.fate,
            "fate_label": fate_labels.get(p.fate, p.fate),
            "hull_lost": p.hull_lost,
            "armour_lost": 0,
            "crew_lost": 0,
            "systems_lost": list(p.critical_states or []),
            "craft_lost": 0,
            "notes": p.notes,
        }
        for p in side.system_units.all()
    ]
