"""What a side may know of a battle before it is fought: the briefing. Its players read
it on the battle page (a draft's report is not theirs to read), the record page and the
turn page.

A briefing holds the scenario, the place (territory) and the objectives of the sides the
reader plays, never another side's (a side's objectives may be secret from its enemy), and
of the other sides only their factions' names: which fleets and ships they bring is what
``battles.visibility`` and the turn board's sensors decide, not the briefing. The
campaign's organisers (and staff) are briefed on every side.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.safestring import SafeString

from battles.access import played_side_ids
from battles.models import Battle, BattleSide
from campaign.core.markdown import render_markdown
from campaign.league.roles import User, is_organiser

__all__ = ["Briefing", "SideBriefing", "battle_briefing"]


@dataclass(frozen=True)
class SideBriefing:
    """One side the reader is briefed on: its faction's and fleet's names (the fleet's
    empty when none) and its objectives as sanitised HTML (empty when none)."""

    faction: str
    fleet: str
    primary_html: SafeString
    secondary_html: SafeString


@dataclass(frozen=True)
class Briefing:
    """A battle's briefing for one reader: ``place`` the territory's name (empty: none
    set), ``scenario_html`` sanitised HTML, ``sides`` the sides they are briefed on (in
    side order), ``opponents`` the other sides' faction names."""

    battle: str
    place: str
    scenario_html: SafeString
    sides: list[SideBriefing]
    opponents: list[str]


def battle_briefing(battle: Battle, user: User) -> Briefing | None:
    """The briefing of ``battle`` for ``user``: every side for staff and the campaign's
    organisers, the sides they play for a player of one, None for anyone else (who is
    briefed on nothing). Two or three queries."""
    if is_organiser(user, battle.campaign):
        own = None
    else:
        own = played_side_ids(user, battle)
        if not own:
            return None
    sides = list(
        BattleSide.objects.filter(battle=battle)
        .select_related("faction", "fleet")
        .order_by("order", "pk")
    )
    briefed = [s for s in sides if own is None or s.pk in own]
    territory = battle.territory.name if battle.territory_id else ""
    return Briefing(
        battle=battle.name,
        place=territory,
        scenario_html=render_markdown(battle.scenario, id_prefix="briefing-scenario-"),
        sides=[
            SideBriefing(
                faction=s.faction.name,
                fleet=s.fleet.name if s.fleet_id else "",
                primary_html=render_markdown(
                    s.primary_objective, id_prefix=f"briefing-{s.pk}-primary-"
                ),
                secondary_html=render_markdown(
                    s.secondary_objectives, id_prefix=f"briefing-{s.pk}-secondary-"
                ),
            )
            for s in briefed
        ],
        opponents=[s.faction.name for s in sides if s not in briefed],
    )
