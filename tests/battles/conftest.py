"""Fixtures of the battle tests: a scratch media folder (reports are written under it), the
action tests' league with its permission matrix (``WHO``, ``login``)."""

import pytest

from campaign.league.models import Membership
from tests.battles.battle_fixtures import draft_skirmish


@pytest.fixture
def media(settings, tmp_path):
    """``MEDIA_ROOT`` in a fresh folder (reports are written under it)."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def league(cast, rival, django_user_model):
    """The cast's campaign with a draft Qatzrin–Phalon skirmish; a Phalon player."""
    battle = draft_skirmish(cast.campaign)
    phalon = battle.sides.get(faction__slug="phalon").faction
    phalon_player = django_user_model.objects.create_user("phalon_player", password="pw")
    Membership.objects.create(
        campaign=cast.campaign, user=phalon_player, role="player", faction=phalon
    )
    cast.battle, cast.phalon_player, cast.rival = battle, phalon_player, rival
    return cast


#: The permission matrix's users, in order (None: anonymous).
WHO = ["organiser", "own_player", "rival_player", "chronicler", "outsider", "other_organiser", None]


def login(client, league, who):
    """Log ``client`` in as ``who`` of :data:`WHO`."""
    users = {
        "organiser": league.organiser,
        "own_player": league.qatzrin_player,
        "rival_player": league.phalon_player,
        "chronicler": league.chronicler,
        "outsider": league.outsider,
        "other_organiser": league.rival.organiser,
    }
    if who:
        client.force_login(users[who])
