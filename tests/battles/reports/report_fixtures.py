"""A small concluded battle for the report, task and site tests (not the seed's sample)."""

from __future__ import annotations

from battles.models import Battle, BattleSide, Event, Participant
from campaign.league.models import Campaign
from factions.models import Faction, Fleet, LightUnitGroup, Ship, ShipClass

HOSTILE_MARKDOWN = """The escort **held**.

<script>alert("pwned")</script>
<img src="x.png" onerror="alert('img')">
[click me](javascript:alert('link'))
<a href="#" onclick="alert('a')">anchor</a>

![host file](file:///etc/hostname)
![remote](http://example.com/spy.png)
"""


def make_battle(campaign: Campaign | None = None, *, narrative: str = "", **fields) -> Battle:
    """A concluded two-sided battle: Phalon beat the Collectif G+ at Miranda (test data).

    One ship destroyed, one damaged, one fighter group mauled, a hidden Phalon fleet that
    took no part, and three logged events over two game turns.
    """
    if campaign is None:
        campaign, _ = Campaign.objects.get_or_create(slug="test-league", name="Test league")
    phalon, _ = Faction.objects.get_or_create(slug="phalon", defaults={"name": "Phalon"})
    gplus, _ = Faction.objects.get_or_create(
        slug="collectif-g-plus", defaults={"name": "Collectif G+"}
    )
    campaign.factions.add(phalon, gplus)
    silith, _ = ShipClass.objects.get_or_create(
        faction=phalon,
        slug="silith",
        defaults={"name": "Silith", "type_word": "protecteur", "mass": 24, "hull_boxes": 7},
    )
    vishnu, _ = ShipClass.objects.get_or_create(
        faction=gplus,
        slug="vishnu",
        defaults={"name": "Vishnu", "type_word": "porte-nef", "mass": 90, "hull_boxes": 30},
    )
    reprisal, _ = Fleet.objects.get_or_create(
        slug="test-reprisal", defaults={"faction": phalon, "name": "Test reprisal fleet"}
    )
    Fleet.objects.get_or_create(
        slug="secret-reserve",
        defaults={"faction": phalon, "name": "Secret Reserve Squadron", "hidden": True},
    )
    ganesha, _ = Fleet.objects.get_or_create(
        slug="test-ganesha", defaults={"faction": gplus, "name": "Test Ganesha force"}
    )
    s1 = Ship.objects.create(ship_class=silith, fleet=reprisal, name="Silith One")
    c1 = Ship.objects.create(
        ship_class=vishnu, fleet=ganesha, name="Vishnu Prime", status="destroyed", hull_lost=30
    )
    c2 = Ship.objects.create(
        ship_class=vishnu, fleet=ganesha, name="Vishnu Second", status="damaged", hull_lost=12
    )
    mijna = LightUnitGroup.objects.create(
        name="Mijna 1", kind="fighter", faction=gplus, fleet=ganesha, carrier=c2, strength=2
    )
    defaults = {
        "name": "Colonisation compromise",
        "slug": "colonisation-compromise",
        "location": "Miranda",
        "campaign_turn": 1,
        "game_turns": 5,
        "outcome": "The Phalon hold the field.",
        "winner": phalon,
        "narrative": narrative or "The reprisal fleet crossed the *asteroid belt*.",
        "analysis": "Fighters arrived too late.",
        "status": Battle.Status.CONCLUDED,
    }
    defaults.update(fields)
    battle = Battle.objects.create(campaign=campaign, **defaults)
    side_p = BattleSide.objects.create(
        battle=battle,
        faction=phalon,
        fleet=reprisal,
        primary_objective="Destroy the enemy fleet",
        secondary_objectives="Protect Petra IV station",
        analysis="Pulsers at close range did the work.",
        order=0,
    )
    side_g = BattleSide.objects.create(
        battle=battle,
        faction=gplus,
        fleet=ganesha,
        primary_objective="Escort the colonists",
        analysis="We should have *waited* for the fighters.",
        order=1,
    )
    Participant.objects.create(side=side_p, ship=s1, fate="unharmed")
    Participant.objects.create(side=side_g, ship=c1, fate="destroyed", hull_lost=30)
    Participant.objects.create(
        side=side_g, ship=c2, fate="damaged", hull_lost=12, systems_lost=["beam-2"]
    )
    Participant.objects.create(side=side_g, light_units=mijna, fate="damaged", craft_lost=4)
    for seq, (turn, kind, summary) in enumerate(
        [
            (1, "move", "Both fleets close on the belt."),
            (2, "fire", "Silith One fires its pulsers at Vishnu Prime."),
            (2, "destroyed", "Vishnu Prime breaks apart."),
        ],
        start=1,
    ):
        Event.objects.create(
            battle=battle, sequence=seq, game_turn=turn, kind=kind, summary=summary
        )
    return battle
