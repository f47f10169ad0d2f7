"""Battle set-up in a star system offers and accepts only the ships of the fleets there."""

import json

import pytest

from battles.models import Battle
from battles.services import BattleActionError, SideSpec, battle_create, eligible_ships
from tests.conftest import client_for

pytestmark = pytest.mark.usefixtures("english")


def test_eligible_ships_in_a_system(starmap):
    s = starmap
    assert [sh.name for sh in eligible_ships(campaign=s.campaign, system=s.deneb)] == ["Shadow One"]
    assert [sh.name for sh in eligible_ships(campaign=s.campaign, system=s.vega)] == []
    assert len(eligible_ships(campaign=s.campaign)) == 3


def test_battle_create_refuses_a_ship_not_in_the_system(starmap):
    s = starmap
    home_ship, shadow_ship = s.home.ships.get(), s.shadow.ships.get()
    sides = [
        SideSpec(faction=s.norge, ships=[home_ship.pk]),
        SideSpec(faction=s.qatzrin, ships=[shadow_ship.pk]),
    ]
    with pytest.raises(BattleActionError, match="Home Fleet One cannot be set up"):
        battle_create(campaign=s.campaign, name="X", sides=sides, system=s.deneb, user=s.organiser)
    assert Battle.objects.count() == 0
    s.home.position.system = s.deneb
    s.home.position.save()
    battle = battle_create(
        campaign=s.campaign, name="X", sides=sides, system=s.deneb, user=s.organiser
    )
    assert (battle.system, battle.location) == (s.deneb, "Deneb")


def test_setup_page_offers_only_ships_in_the_chosen_system(starmap, rival):
    s = starmap
    client = client_for(s, rival, "organiser")
    page = client.get(f"/campaigns/{s.campaign.slug}/battles/new/", {"system": s.deneb.pk})
    body = page.content.decode()
    assert page.status_code == 200
    assert "Shadow One" in body and "Home Fleet One" not in body and "Raiders One" not in body


def test_api_setup_with_a_system(starmap, rival):
    s = starmap
    client = client_for(s, rival, "organiser", HTTP_ACCEPT_LANGUAGE="en")
    body = {
        "name": "Ambush",
        "system": "sol",
        "sides": [
            {"faction": "kongeriket-norge", "ships": [s.home.ships.get().pk]},
            {"faction": "qatzrin", "ships": [s.shadow.ships.get().pk]},
        ],
    }
    url = f"/api/campaigns/{s.campaign.slug}/battles"
    response = client.post(url, json.dumps(body), content_type="application/json")
    assert (
        response.status_code == 400 and "Shadow One cannot be set up" in response.json()["detail"]
    )
    body["system"] = "nowhere"
    response = client.post(url, json.dumps(body), content_type="application/json")
    assert response.status_code == 400
    assert "system: 'nowhere' is not a system of this campaign" in response.json()["detail"]
    assert Battle.objects.count() == 0


def test_candidates_api_by_system(starmap, rival):
    s = starmap
    client = client_for(s, rival, "organiser", HTTP_ACCEPT_LANGUAGE="en")
    url = f"/api/campaigns/{s.campaign.slug}/battle-candidates"
    assert [c["name"] for c in client.get(url, {"system": "deneb"}).json()["ships"]] == [
        "Shadow One"
    ]
    assert len(client.get(url).json()["ships"]) == 3
    bad = client.get(url, {"system": "nowhere"})
    assert bad.status_code == 400 and "system: 'nowhere'" in bad.json()["detail"]


def test_territory_and_system_must_agree(starmap):
    s = starmap
    sides = [
        SideSpec(faction=s.norge, ships=[s.home.ships.get().pk]),
        SideSpec(faction=s.qatzrin, ships=[s.raiders.ships.get().pk]),
    ]
    s.raiders.position.system = s.sol
    s.raiders.position.save()
    with pytest.raises(BattleActionError, match="territory: Qatz Prime is not in the system Sol"):
        battle_create(
            campaign=s.campaign,
            name="X",
            sides=sides,
            system=s.sol,
            territory=s.prime,
            user=s.organiser,
        )
    battle = battle_create(
        campaign=s.campaign, name="X", sides=sides, system=s.sol, territory=s.oslo, user=s.organiser
    )
    assert (battle.location, battle.system, battle.territory) == ("Oslo Station", s.sol, s.oslo)
