"""Pages whose lists grow: the campaign page's battles (a page at a time, filtered), the
faction page's battles and a class's ships — exact pages, edges, filters, flat queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.models import Battle, BattleSide
from tests.conftest import client_for
from tests.world import add_ships

CAMPAIGN = "/campaigns/test-league/"


def battles(cast, n, *, start=0, turn=1, status="concluded", factions=None):
    for i in range(start, start + n):
        b = Battle.objects.create(
            campaign=cast.campaign, name=f"Battle {i:03}", slug=f"b{i}", status=status,
            campaign_turn=turn,
        )  # fmt: skip
        for order, faction in enumerate(factions or (cast.norge, cast.qatzrin)):
            BattleSide.objects.create(battle=b, faction=faction, order=order)


def names(response):
    return [b.name for b in response.context["battles"]]


def test_the_campaign_page_shows_fifty_battles_a_page(cast):
    battles(cast, 120)
    client = client_for(cast, None, None)
    first = client.get(CAMPAIGN)
    assert first.status_code == 200
    # Latest first: same date and turn, so the last created first.
    assert names(first) == [f"Battle {i:03}" for i in range(119, 69, -1)]
    third = client.get(CAMPAIGN + "?page=3")
    assert names(third) == [f"Battle {i:03}" for i in range(19, -1, -1)]
    html = first.content.decode()
    assert 'href="?page=2"' in html and "page 1 sur 3" in html


@pytest.mark.parametrize(
    ("page", "number"), [("99", 3), ("9" * 40, 3), ("x", 1), ("0", 1), ("-4", 1), ("", 1), ("²", 1)]
)
def test_a_page_beyond_or_not_a_number_never_fails(cast, page, number):
    battles(cast, 120)
    response = client_for(cast, None, None).get(f"{CAMPAIGN}?page={page}")
    assert response.status_code == 200
    assert response.context["listing"].page.number == number


def test_filters_pick_exact_battles_and_keep_drafts_with_organisers(cast, rival):
    battles(cast, 2, turn=1)
    battles(cast, 2, start=2, turn=2)
    battles(cast, 1, start=4, turn=2, status="draft")
    battles(cast, 1, start=5, turn=3, factions=(cast.norge,))
    public = client_for(cast, rival, None)
    assert names(public.get(CAMPAIGN + "?turn=2")) == ["Battle 003", "Battle 002"]
    assert names(public.get(CAMPAIGN + "?status=draft")) == []
    organiser = client_for(cast, rival, "organiser")
    assert names(organiser.get(CAMPAIGN + "?turn=2&status=draft")) == ["Battle 004"]
    assert len(names(public.get(CAMPAIGN + "?faction=qatzrin"))) == 4
    assert names(public.get(CAMPAIGN + "?faction=kongeriket-norge&turn=3")) == ["Battle 005"]
    assert names(public.get(CAMPAIGN + "?name=attle 00")) == [
        "Battle 005", "Battle 003", "Battle 002", "Battle 001", "Battle 000",
    ]  # fmt: skip
    # The page links keep the filters.
    battles(cast, 60, start=10, turn=7)
    html = public.get(CAMPAIGN + "?turn=7").content.decode()
    assert 'href="?turn=7&amp;page=2"' in html


def test_a_bad_filter_is_a_form_error_not_a_500(cast):
    response = client_for(cast, None, None).get(CAMPAIGN + "?turn=many")
    assert response.status_code == 400
    assert "turn" in response.context["battle_filters"].form.errors
    assert names(response) == []


def test_the_campaign_page_queries_stay_flat_from_3_to_100_battles(cast, django_assert_num_queries):
    client = client_for(cast, None, "organiser")
    battles(cast, 3)
    with CaptureQueriesContext(connection) as small:
        client.get(CAMPAIGN)
    battles(cast, 97, start=3)
    with django_assert_num_queries(len(small)):
        assert len(names(client.get(CAMPAIGN))) == 50


def test_the_faction_page_lists_its_battles_a_page_at_a_time(cast):
    battles(cast, 60)
    client = client_for(cast, None, None)
    assert len(client.get("/factions/qatzrin/").context["battles"]) == 50
    second = client.get("/factions/qatzrin/?page=2").context["battles"]
    assert len(second) == 10


def test_a_class_page_lists_its_ships_a_page_at_a_time(world):
    add_ships(world.public_fleet, world.saar, 60, prefix="Extra")
    client = client_for(world.cast, None, None)
    url = f"/classes/{world.saar.pk}/"
    assert len(client.get(url).context["ships"]) == 50
    # The Sa'ar: Nimrod, two Namadira and 60 more, public; Tzel is in the hidden fleet.
    assert len(client.get(url + "?page=2").context["ships"]) == 13
    assert client.get(url + "?page=2").context["listing"].page.paginator.count == 63
