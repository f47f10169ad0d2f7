"""A scored campaign: the cast's campaign with the draft skirmish (Qatzrin against the
Phalon, campaign turn 2), the classes priced as in the catalogue, a second Qatzrin
player, territories (two Qatzrin, one Phalon) and helpers to record the battle."""

from __future__ import annotations

from battles.models import Battle, Participant
from battles.services import battle_record
from campaign.league.models import Membership
from factions.models import ShipClass, Territory
from tests.battles.battle_fixtures import draft_skirmish

#: Construction points of the catalogue's classes (factions/catalogue/*.json).
POINTS = {"saar": 57, "raam": 95, "tzayad": 145, "tsaara": 225, "huulth": 276, "silith": 124}


def scored_battle(cast, django_user_model, slug: str = "skirmish") -> Battle:
    """The draft skirmish of the cast's campaign with priced classes; ``cast.second`` is a
    second Qatzrin player (joined after ``qatzrin_player``)."""
    battle = draft_skirmish(cast.campaign, slug=slug)
    for class_slug, points in POINTS.items():
        ShipClass.objects.filter(slug=class_slug).update(points=points)
    if not hasattr(cast, "second"):
        cast.second = django_user_model.objects.create_user("qatzrin_second", password="pw-12345!")
        Membership.objects.create(
            campaign=cast.campaign, user=cast.second, role="player", faction=cast.qatzrin
        )
    return battle


def participant(battle: Battle, class_slug: str) -> Participant:
    """The first participant of ``battle`` whose ship is of class ``class_slug``."""
    return Participant.objects.filter(
        side__battle=battle, ship__ship_class__slug=class_slug
    ).first()


def record_qatzrin_victory(battle: Battle, user) -> Battle:
    """Qatzrin wins: the Phalon Tsaara destroyed (225 points, mass 58) and Huulth captured
    (276, mass 70); a Qatzrin Sa'ar destroyed (57, mass 17)."""
    return battle_record(
        battle=battle,
        results=[
            {"participant": participant(battle, "tsaara").pk, "fate": "destroyed"},
            {"participant": participant(battle, "huulth").pk, "fate": "captured"},
            {"participant": participant(battle, "saar").pk, "fate": "destroyed"},
        ],
        outcome="Qatzrin hold the field.",
        winner="qatzrin",
        user=user,
    )


def territories(cast) -> None:
    """Two territories held by Qatzrin, one by the Phalon."""
    phalon = cast.campaign.factions.get(slug="phalon")
    for i, faction in enumerate((cast.qatzrin, cast.qatzrin, phalon)):
        Territory.objects.create(faction=faction, name=f"World {i}", slug=f"world-{i}")
