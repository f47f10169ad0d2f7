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
from django.utils.translation import gettext_lazy

from battles.models import Battle, BattleSide, Participant
from battles.models.other_games import SystemParticipant, SystemUnit
from battles.rules.errors import RulesError
from battles.services import report_request
from battles.systems import epic, sf_tokens, swsb
from battles.systems.games import DEFAULT_SYSTEM, SYSTEMS
from factions.models import Faction

__all__ = [
    "OtherBattleError",
    "SideInput",
    "UnitInput",
    "critical_choices",
    "other_battle_record",
    "system_unit_rows",
    "unit_stats_check",
]

MAX_UNITS_PER_SIDE = 60
EPIC_STATE_MAX = 40


class OtherBattleError(ValueError):
    """Bad input for a recorded battle; ``field`` names the form field."""

    def __init__(self, field: str, message: str, *, label: str | None = None) -> None:
        # ``field`` stays the form's key; the text names it in the reader's language.
        shown = label or str(FIELD_LABELS.get(field, field))
        super().__init__(_("%(field)s: %(message)s") % {"field": shown, "message": message})
        self.field = field
        self.message = message


#: The form fields as errors name them (``critical_states`` fields name their row).
FIELD_LABELS = {
    "stats": gettext_lazy("stats"),
    "abilities": gettext_lazy("abilities"),
    "game_system": gettext_lazy("game system"),
    "name": gettext_lazy("name"),
    "sides": gettext_lazy("sides"),
    "winner": gettext_lazy("winner"),
    "fate": gettext_lazy("fate"),
    "unit": gettext_lazy("unit"),
}


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


def unit_stats_check(game_system: str, stats: object, abilities: object) -> None:
    """Check a roster unit's data against its system's rules package: Starfinder ``tier``
    and ``crew`` (seed 001), Star Wars ``rank``, ``hull``, ``defence``, ``screen_value``
    (seed 002), Epic ``abilities`` ids (seed 004). Raises :class:`OtherBattleError`."""
    if not isinstance(stats, dict):
        raise OtherBattleError("stats", _("expected an object"))
    if not isinstance(abilities, list):
        raise OtherBattleError("abilities", _("expected a list of ability ids"))
    try:
        if game_system == "starfinder":
            sf_tokens.parse_tier(stats.get("tier"), "stats.tier")
            crew = stats.get("crew")
            if isinstance(crew, bool) or not isinstance(crew, int) or crew < 1:
                raise OtherBattleError(
                    "stats", _("crew: %(value)r is not a crew count (1 or more)") % {"value": crew}
                )
        elif game_system == "sw-starship-battles":
            swsb.ship_from_dict({"id": "unit", "side": "roster", **stats})
        elif game_system == "epic":
            for ability in abilities:
                epic.get_ability(ability)
    except RulesError as exc:
        raise OtherBattleError(
            "stats" if game_system != "epic" else "abilities", str(exc)
        ) from None


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
                # The valid ones named: the form's list sits collapsed at its foot (trial m-12).
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
) -> Battle:
    """Write a concluded battle of ``game_system`` with its sides and unit results, in one
    transaction, and queue its report. Raises :class:`OtherBattleError` naming the field
    (nothing is written then)."""
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
        battle = Battle.objects.create(
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
            status=Battle.Status.CONCLUDED,
        )
        rows = []
        for order, side in enumerate(sides):
            battle_side = BattleSide.objects.create(
                battle=battle, faction=side.faction, is_winner=side.is_winner, order=order
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
        report_request(battle=battle)
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
