"""API of the other game systems: exact answers, bounded requests, 400s naming the field."""

import pytest

pytestmark = pytest.mark.django_db


def test_systems_registry(client):
    systems = client.get("/api/rules/systems").json()
    assert [s["id"] for s in systems] == [
        "ft-incursion",
        "starfinder",
        "sw-starship-battles",
        "epic",
    ]


def test_token_pool_and_check_odds(client):
    assert client.get(
        "/api/rules/starfinder/tokens/pool", {"gm_tier": "4", "pc_tier": "6", "crew": 6}
    ).json() == {"pool": 2}
    assert client.get(
        "/api/rules/starfinder/tokens/pool", {"gm_tier": "9", "pc_tier": "6", "crew": 1}
    ).json() == {"pool": 1}
    bad = client.get(
        "/api/rules/starfinder/tokens/pool", {"gm_tier": "25", "pc_tier": "6", "crew": 6}
    )
    assert bad.status_code == 400 and "gm_tier" in bad.json()["detail"]
    odds = client.get("/api/rules/starfinder/tokens/check-odds", {"modifier": 7, "dc": 15}).json()
    assert (odds["without"]["p"], odds["plus_five"]["p"], odds["plus_two"]["p"]) == (
        "13/20",
        "9/10",
        "3/4",
    )


def test_token_round_steps_and_refusal(client):
    ship = {"name": "Corsair", "tier": "6", "pc_tier": "6", "crew": 6}
    steps = [
        {"op": "spend", "action": "full-power"},
        {"op": "boost", "kind": "all"},
        {"op": "next-round"},
    ]
    body = client.post(
        "/api/rules/starfinder/tokens/round",
        {"ship": ship, "steps": steps},
        content_type="application/json",
    ).json()
    assert body["ship"]["round"] == 2 and body["ship"]["tokens"] == 4
    refused = client.post(
        "/api/rules/starfinder/tokens/round",
        {"ship": ship | {"tier": "5"}, "steps": [{"op": "spend", "action": "full-power"}]},
        content_type="application/json",
    )
    assert (
        refused.status_code == 400
        and refused.json()["detail"] == "steps[0]: action full-power: needs tier 6"
    )
    wrong = client.post(
        "/api/rules/starfinder/tokens/round",
        {"ship": {"crew": "x"}},
        content_type="application/json",
    )
    assert wrong.status_code == 400


BOARDING = {
    "party_size": 10, "party_tier": "4", "party_training": "competent", "target_crew": 100,
    "ship_tier": "6", "ship_training": "competent", "biometric_locks": True,
}  # fmt: skip


def test_boarding_odds_and_resolve(client):
    body = client.get("/api/rules/starfinder/boarding/odds", BOARDING).json()
    assert (body["attack_modifier"], body["resistance"]) == (2, 9)
    assert [b["p"] for b in body["bands"]] == ["0", "1/10", "1/5", "1/4", "9/20"]
    first = client.get("/api/rules/starfinder/boarding/resolve", BOARDING | {"seed": 11}).json()
    again = client.get("/api/rules/starfinder/boarding/resolve", BOARDING | {"seed": 11}).json()
    assert first == again and first["rolls"][0].startswith("boarding attack (10 boarders): d20=")
    cap = client.get("/api/rules/starfinder/boarding/odds", BOARDING | {"attacker_crew": 20})
    assert (
        cap.status_code == 400
        and "party_size: 10 is more than the cap of 4" in cap.json()["detail"]
    )


def test_swsb_attack_odds_and_fleet_turn(client):
    odds = client.get(
        "/api/rules/swsb/attack-odds", {"attack": 8, "defence": 14, "damage": 20, "screen": 4}
    ).json()
    assert odds["hit"]["p"] == "3/4" and odds["mean_damage_through"]["p"] == "2429/200"
    ships = [
        {
            "id": "ISD",
            "side": "empire",
            "rank": "class-1",
            "hull": 40,
            "defence": 14,
            "screen_value": 4,
            "split": {"front": 4},
        },
        {"id": "CR90", "side": "rebels", "rank": "class-3", "hull": 10, "defence": 12},
    ]
    attacks = [{"attacker": "ISD", "target": "CR90", "attack": 6, "damage": 6}]
    payload = {"ships": ships, "attacks": attacks, "initiative": "rebels", "seed": 5}
    first = client.post(
        "/api/rules/swsb/fleet-turn", payload, content_type="application/json"
    ).json()
    assert (
        first
        == client.post(
            "/api/rules/swsb/fleet-turn", payload, content_type="application/json"
        ).json()
    )
    bad_split = [ships[0] | {"split": {"front": 3}}, ships[1]]
    response = client.post(
        "/api/rules/swsb/fleet-turn",
        payload | {"ships": bad_split},
        content_type="application/json",
    )
    assert (
        response.status_code == 400
        and "adds up to 3, the screen value is 4" in response.json()["detail"]
    )


def test_epic_abilities_and_resolve(client):
    abilities = client.get("/api/rules/epic/abilities").json()
    assert len(abilities) == 23
    url = "/api/rules/epic/abilities/energy-shields/resolve"
    body = client.post(
        url,
        {"params": {"shields": 2, "shots": 3, "to_hit": 4, "ap": 1}},
        content_type="application/json",
    ).json()
    assert body["hits_on_base"] == {"0": "7/8", "1": "1/8"}
    unknown = client.post(
        "/api/rules/epic/abilities/void-shield/resolve",
        {"params": {}},
        content_type="application/json",
    )
    assert unknown.status_code == 400 and "'void-shield'" in unknown.json()["detail"]
    big = client.post(
        url, {"params": {"shields": 2, "shots": 301}}, content_type="application/json"
    )
    assert big.status_code == 400 and "params.shots" in big.json()["detail"]
    typed = client.post(
        url, {"params": {"shields": [], "shots": 3}}, content_type="application/json"
    )
    assert typed.status_code == 400 and "shields" in typed.json()["detail"]


def test_every_new_endpoint_is_in_the_openapi_schema(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    for path in (
        "/api/rules/systems", "/api/rules/starfinder/tokens/pool",
        "/api/rules/starfinder/tokens/round",
        "/api/rules/starfinder/boarding/odds", "/api/rules/starfinder/boarding/resolve",
        "/api/rules/swsb/attack-odds", "/api/rules/swsb/fleet-turn", "/api/rules/epic/abilities",
        "/api/rules/epic/abilities/{ability_id}/resolve",
    ):  # fmt: skip
        assert path in paths
