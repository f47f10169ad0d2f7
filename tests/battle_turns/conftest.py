"""A draft skirmish between Qatzrin and Phalon with a player on each side (the cast's
``qatzrin_player`` and a ``phalon_player``), ready to be fought turn by turn."""

from __future__ import annotations

import pytest

SEED = 20261201


def make_duel(cast, user_model):
    """The duel (see the module docstring): ``battle``, ``cast``, ``phalon_player``,
    ``qatzrin_side``, ``phalon_side``."""
    from campaign.league.models import Membership
    from factions.models import Faction
    from tests.battles.battle_fixtures import draft_skirmish

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


@pytest.fixture
def duel(cast, django_user_model):
    return make_duel(cast, django_user_model)
