"""A draft battle where enemy fleets met on the star map: the receiver of
``campaign.core.signals.fleets_met`` (sent by ``campaign.starmap.advance`` once a turn
close commits), connected in ``battles/apps.py``.

The battle is a draft for the organiser to play, record or auto-resolve: one side a
faction (in faction-name order), its first fleet there named as the side's fleet, and
every ship of the fleets that met that may be set up (``eligible_ships``: not destroyed,
captured, under repair nor in another unconcluded battle) proposed. A meeting in a system
is fought there (``Battle.system``; ``location`` the system's name); a crossing on a link
has no system and ``location`` "A – B". Created by the system actor in one transaction
(``battle_create``); a meeting where fewer than two factions have a ship free gives no
battle (logged), and nothing is written for it.
"""

from __future__ import annotations

import logging
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from battles.models import Battle
from battles.services.common import BattleActionError
from battles.services.setup import SideSpec, battle_create, eligible_ships
from campaign.core.actors import SYSTEM
from campaign.core.signals import fleets_met
from campaign.league.models import Campaign
from campaign.starmap.models import StarLink, StarSystem
from factions.models import Fleet

logger = logging.getLogger(__name__)


def meeting_battle_create(
    *,
    campaign: Campaign,
    system: StarSystem | None,
    link: StarLink | None,
    turn: int,
    fleets: list[Fleet],
) -> Battle | None:
    """Draft the battle of a meeting (module docstring); returns it, or None when fewer
    than two factions have a free ship there."""
    fleet_ids = [f.pk for f in fleets]
    ships = eligible_ships(campaign=campaign, system=system).filter(fleet_id__in=fleet_ids)
    by_faction: dict[int, list[int]] = {}
    for ship in ships:
        by_faction.setdefault(ship.fleet.faction_id, []).append(ship.pk)
    sides = []
    for fleet in sorted(fleets, key=lambda f: (f.faction.name, f.name, f.pk)):
        if fleet.faction_id in by_faction and all(s.faction.pk != fleet.faction_id for s in sides):
            sides.append(
                SideSpec(faction=fleet.faction, fleet=fleet, ships=by_faction[fleet.faction_id])
            )
    if len(sides) < 2:
        logger.info("meeting at turn %s: fewer than two sides with free ships, no battle", turn)
        return None
    if system is not None:
        place = system.name
    else:
        place = f"{link.a.name} – {link.b.name}" if link is not None else ""
    # The battle's name is stored: written in the campaign's language, as its reports are.
    with translation.override(campaign.language or None):
        name = (
            _("%(place)s, turn %(n)s") % {"place": place, "n": turn}
            if place
            else _("Meeting, turn %(n)s") % {"n": turn}
        )
    try:
        battle = battle_create(
            campaign=campaign,
            name=name,
            sides=sides,
            campaign_turn=turn,
            system=system,
            user=SYSTEM,
        )
    except BattleActionError:
        logger.exception("meeting at %s, turn %s: no battle drafted", place, turn)
        return None
    if system is None and place:
        battle.location = place
        battle.save(update_fields=["location"])
    return battle


def on_fleets_met(sender: Any, **kwargs: Any) -> None:
    """``fleets_met`` receiver: :func:`meeting_battle_create`."""
    meeting_battle_create(
        campaign=kwargs["campaign"],
        system=kwargs.get("system"),
        link=kwargs.get("link"),
        turn=kwargs["turn"],
        fleets=kwargs["fleets"],
    )


fleets_met.connect(on_fleets_met, dispatch_uid="battles.meetings")
