"""A draft skirmish ready to resolve or record: Qatzrin scouts against Phalon ships; the
duel, a small skirmish with a player on each side, ready to be fought turn by turn.

Ship classes come from the project catalogue (``factions/catalogue/*.json``), so the
designs are the ones the engine fights with in production.
"""

from __future__ import annotations

import json

from battles.models import Battle, BattleSide, Participant
from campaign.league.models import Campaign, Membership
from factions.catalogue_loader import CATALOGUE_DIR
from factions.models import Faction, Fleet, LightUnitGroup, Ship, ShipClass

CATALOGUE = CATALOGUE_DIR


def ship_class(faction: Faction, name: str) -> ShipClass:
    """The catalogue class ``name`` of ``faction`` as a ShipClass row (created once)."""
    data = json.loads((CATALOGUE / f"{faction.slug}.json").read_text("utf-8"))
    design = next(c for c in data["classes"] if c["name"] == name)
    cls, _ = ShipClass.objects.get_or_create(
        faction=faction,
        slug=name.lower().replace("'", ""),
        defaults={
            "name": name,
            "type_word": design.get("type_word", ""),
            "mass": design["mass"],
            "hull_boxes": design["hull"]["boxes"],
            "armour": sum(design.get("armour", {}).get("layers", [])),
            "thrust": design.get("thrust", 0),
            "design": design,
        },
    )
    return cls


def draft_skirmish(
    campaign: Campaign | None = None,
    *,
    qatzrin: tuple[str, ...] = ("Sa'ar", "Sa'ar", "Ra'am", "Ra'am", "Tzayad"),
    phalon: tuple[str, ...] = ("Tsaara", "Huulth", "Silith"),
    slug: str = "skirmish",
) -> Battle:
    """A draft battle, side Qatzrin (order 0) against side Phalon (order 1), every ship a
    participant; the Phalon side also has a fighter group based off-ship."""
    if campaign is None:
        campaign, _ = Campaign.objects.get_or_create(slug="test-league", name="Test league")
    factions = {}
    for fslug, name in (("qatzrin", "Qatzrin"), ("phalon", "Phalon")):
        factions[fslug], _ = Faction.objects.get_or_create(slug=fslug, defaults={"name": name})
    campaign.factions.add(*factions.values())
    battle = Battle.objects.create(
        campaign=campaign, name=f"Skirmish {slug}", slug=slug, campaign_turn=2
    )
    for order, (fslug, classes) in enumerate((("qatzrin", qatzrin), ("phalon", phalon))):
        faction = factions[fslug]
        fleet = Fleet.objects.create(
            faction=faction, name=f"{fslug} {slug}", slug=f"{fslug}-{slug}"
        )
        side = BattleSide.objects.create(battle=battle, faction=faction, fleet=fleet, order=order)
        for name in classes:
            ship = Ship.objects.create(ship_class=ship_class(faction, name), fleet=fleet)
            Participant.objects.create(side=side, ship=ship)
        if fslug == "phalon":
            group = LightUnitGroup.objects.create(
                name="Nith", kind="fighter", faction=faction, fleet=fleet, size=6, strength=6
            )
            Participant.objects.create(side=side, light_units=group)
    return battle


#: The seed of the turn-by-turn tests' battles.
SEED = 20261201


def make_duel(cast, user_model):
    """A draft skirmish between Qatzrin and Phalon with a player on each side (the cast's
    ``qatzrin_player`` and a ``phalon_player``), ready to be fought turn by turn:
    ``battle``, ``cast``, ``phalon_player``, ``qatzrin_side``, ``phalon_side``."""
    battle = draft_skirmish(cast.campaign, qatzrin=("Sa'ar", "Ra'am"), phalon=("Tsaara",))
    phalon = Faction.objects.get(slug="phalon")
    player = user_model.objects.create_user("phalon_player", password="pw-12345!")
    Membership.objects.create(
        campaign=cast.campaign, user=player, role=Membership.Role.PLAYER, faction=phalon
    )

    class Duel:
        pass

    d = Duel()
    d.battle, d.cast, d.phalon_player = battle, cast, player
    d.qatzrin_side = battle.sides.get(faction__slug="qatzrin")
    d.phalon_side = battle.sides.get(faction__slug="phalon")
    return d
