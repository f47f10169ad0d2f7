"""The orders form offers only the launches the engine's phase 1 would accept:
fighters based at a station (a platform with no fire control, and each
launch ties one, rules §6) are shown as unable to launch, with the engine's reason, and
no launch control; a crafted launch for them is not passed on. A carrier's bay is still
offered."""

from __future__ import annotations

import pytest
from django.test import Client

from battles.models import Participant
from battles.models.turn_orders import TurnOrders
from battles.play.forms import order_sheet
from battles.play.game_turns import turn_play_start, turn_state
from campaign.core.actors import SYSTEM
from campaign.league.models import Membership
from factions.models import LightUnitGroup, Territory
from tests.battles.battle_fixtures import SEED, draft_skirmish

pytestmark = pytest.mark.django_db


@pytest.fixture
def carrier_and_station(cast, django_user_model):
    battle = draft_skirmish(cast.campaign, qatzrin=("Kineret",), phalon=("Tsaara",))
    phalon = battle.sides.get(faction__slug="phalon")
    player = django_user_model.objects.create_user("phalon_player", password="pw-12345!")
    Membership.objects.create(
        campaign=cast.campaign, user=player, role=Membership.Role.PLAYER, faction=phalon.faction
    )
    petra = Territory.objects.create(faction=phalon.faction, name="Petra IV", slug="petra-iv")
    station = LightUnitGroup.objects.create(
        name="Petra wing",
        kind="fighter",
        faction=phalon.faction,
        territory=petra,
        size=3,
        strength=3,
    )
    Participant.objects.create(side=phalon, light_units=station)
    play = turn_play_start(user=SYSTEM, battle=battle, seed=SEED, max_turns=3)
    return battle, play, player, f"lu-{station.pk}"


def test_the_engines_refusal_replaces_the_launch_control(carrier_and_station, cast):
    battle, play, player, station = carrier_and_station
    state = turn_state(play=play)
    (carrier,) = order_sheet(state, "qatzrin")
    offered = [lu["id"] for lu in carrier["launchers"]]
    assert offered == ["bay-a", "bay-b", "bay-c", "bay-d"] and not carrier["unlaunchable"]
    rows = {row["id"]: row for row in order_sheet(state, "phalon")}
    assert rows[station]["launchers"] == []
    assert rows[station]["unlaunchable"] == [
        {
            "id": "bay-a",
            "what": "chasseurs ×3",
            "why": "Petra wing\u202f: 1 lancements mais 0 conduite(s) de tir en service\u202f; "
            "chaque lancement en occupe une (règles §6)",
        }
    ]
    client = Client()
    client.force_login(player)
    url = f"/battles/{battle.pk}/turns/"
    html = client.get(url).content.decode()
    assert f'name="launch-{station}-bay-a"' not in html
    refused = (
        "bay-a (chasseurs ×3) ne peut pas lancer ce tour-ci\u202f: Petra wing\u202f: 1 lancements"
    )
    assert refused in html
    # A crafted launch for the station is not passed on: the orders are stored without it.
    target = next(iter(rows))  # any id: the field is not read
    response = client.post(url + "orders/", {f"launch-{station}-bay-a": target})
    assert response.status_code in (200, 302)
    stored = TurnOrders.objects.get(battle=battle, side__faction__slug="phalon").orders
    assert not any(entry.get("launches") for entry in stored.values())
