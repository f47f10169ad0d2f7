"""The API's lists a page at a time: ``limit``/``offset``, the total in ``X-Total-Count``,
the same JSON array as before, filters with exact results, edges answered 422 or ``[]``
(never a 500), and queries that do not grow with the list."""

import pytest

from battles.models import Battle, BattleSide
from factions.models import Fleet
from tests.conftest import client_for


def battles(cast, n, *, start=0, turn=1, status="concluded"):
    for i in range(start, start + n):
        b = Battle.objects.create(
            campaign=cast.campaign, name=f"Battle {i:03}", slug=f"b{i}", status=status,
            campaign_turn=turn,
        )  # fmt: skip
        BattleSide.objects.create(battle=b, faction=cast.norge, order=0)
        BattleSide.objects.create(battle=b, faction=cast.qatzrin, order=1)


def names(response):
    assert response.status_code == 200, response.content
    return [row["name"] for row in response.json()]


def test_a_page_is_the_same_array_with_the_total_in_a_header(cast):
    battles(cast, 120)
    client = client_for(cast, None, None)
    first = client.get("/api/battles")
    assert first["X-Total-Count"] == "120"
    assert names(first) == [f"Battle {i:03}" for i in range(100)]  # default limit 100
    assert set(first.json()[0]) == {
        "id", "name", "slug", "campaign", "location", "campaign_turn", "game_turns",
        "status", "winner", "sides",
    }  # fmt: skip
    page = client.get("/api/battles?limit=7&offset=110")
    assert names(page) == [f"Battle {i:03}" for i in range(110, 117)]
    assert page["X-Total-Count"] == "120"
    assert names(client.get("/api/battles?offset=500")) == []


@pytest.mark.parametrize(
    "query",
    ["limit=0", "limit=501", "limit=x", "offset=-1", "offset=99999999999999999999", "turn=-2"],
)
def test_a_limit_or_offset_out_of_bounds_is_422_naming_it(cast, query):
    response = client_for(cast, None, None).get(f"/api/battles?{query}")
    assert response.status_code == 422
    assert query.split("=")[0] in response.content.decode()


def test_battle_filters_pick_exact_rows(cast, rival):
    battles(cast, 3, turn=1)
    battles(cast, 2, start=3, turn=2)
    battles(cast, 1, start=5, turn=2, status="draft")
    other = Battle.objects.create(
        campaign=rival.campaign, name="Phalon raid", slug="raid", status="concluded"
    )
    BattleSide.objects.create(battle=other, faction=rival.phalon, order=0)
    org = client_for(cast, rival, "organiser")
    assert names(org.get("/api/battles?turn=2")) == ["Battle 003", "Battle 004", "Battle 005"]
    assert names(org.get("/api/battles?turn=2&status=draft")) == ["Battle 005"]
    assert names(org.get("/api/battles?faction=phalon")) == ["Phalon raid"]
    assert names(org.get("/api/battles?campaign=other-league&name=RAID")) == ["Phalon raid"]
    # A filter never widens the scope: the public does not get the draft by asking for it.
    assert names(client_for(cast, rival, None).get("/api/battles?status=draft")) == []
    # One row per battle, however many sides match.
    assert len(names(org.get("/api/battles?faction=qatzrin"))) == 6
    bad = org.get("/api/battles?status=lost")
    assert bad.status_code == 422
    assert bad.json()["errors"][0]["field"] == "status"


def test_battle_list_queries_stay_flat_from_3_to_100(cast, django_assert_num_queries):
    client = client_for(cast, None, None)
    battles(cast, 3)
    # how many, the page's battles, their sides, the visible fleet ids
    with django_assert_num_queries(4):
        assert len(names(client.get("/api/battles"))) == 3
    battles(cast, 97, start=3)
    with django_assert_num_queries(4):
        assert len(names(client.get("/api/battles"))) == 100


def test_fleet_list_pages_and_filters_within_what_the_viewer_may_see(cast, rival):
    for i in range(5):
        Fleet.objects.create(faction=cast.norge, name=f"Norge {i}", slug=f"n{i}")
    Fleet.objects.create(faction=cast.qatzrin, name="Shadow", slug="shadow", hidden=True)
    public = client_for(cast, rival, None)
    response = public.get("/api/fleets?limit=2&offset=1")
    assert response["X-Total-Count"] == "5"
    assert names(response) == ["Norge 1", "Norge 2"]
    assert names(public.get("/api/fleets?faction=qatzrin")) == []
    player = client_for(cast, rival, "qatzrin_player")
    assert names(player.get("/api/fleets?faction=qatzrin")) == ["Shadow"]
    assert names(player.get("/api/fleets?name=ORGE 4")) == ["Norge 4"]


def test_faction_and_design_lists_carry_their_totals(cast, rival):
    response = client_for(cast, rival, None).get("/api/factions?limit=1")
    assert response["X-Total-Count"] == "3"
    assert [f["slug"] for f in response.json()] == ["kongeriket-norge"]
    designs = client_for(cast, rival, None).get("/api/designs")
    assert designs.status_code == 200 and designs["X-Total-Count"] == "0"


def test_a_campaigns_own_lists_page_too_and_keep_their_scope(cast, rival):
    organiser = client_for(cast, rival, "organiser")
    response = organiser.get("/api/campaigns/test-league/members?limit=2&offset=1")
    assert response["X-Total-Count"] == "4"
    assert [m["username"] for m in response.json()] == ["norge_player", "organiser"]
    assert (
        client_for(cast, rival, "norge_player")
        .get("/api/campaigns/test-league/members?limit=2")
        .status_code
        == 403
    )
    for kind in ("moves", "repairs", "constructions"):
        page = client_for(cast, rival, "norge_player").get(f"/api/campaigns/test-league/{kind}")
        assert (page.status_code, page.json(), page["X-Total-Count"]) == (200, [], "0")
        assert organiser.get(f"/api/campaigns/test-league/{kind}?limit=0").status_code == 422
