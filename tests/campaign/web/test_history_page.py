"""The campaign's history page for organisers (``/campaigns/<slug>/history/``): who may
read it, what it holds (only the campaign's rows), its filters, pages and query count."""

from datetime import timedelta

import pytest
from django.utils import timezone

from battles.models import Battle
from campaign.turns.models import CampaignTurn, LedgerEntry
from factions.models import Fleet, Ship
from tests.conftest import client_for

pytestmark = pytest.mark.usefixtures("english")


def url(slug="test-league", **query):
    q = "&".join(f"{k}={v}" for k, v in query.items())
    return f"/campaigns/{slug}/history/" + (f"?{q}" if q else "")


def labels(response):
    return [(e.kind, e.label, e.change) for e in response.context["events"]]


def ledger(cast, n, *, user=None):
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            campaign=cast.campaign, faction=cast.norge, turn=1, kind="adjustment",
            resources=i, reason=f"r{i}", user=user,
        )
        for i in range(n)
    )  # fmt: skip


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("organiser", 200),
        ("staff", 200),
        ("norge_player", 403),
        ("qatzrin_player", 403),
        ("chronicler", 403),
        ("outsider", 404),
        ("other_org", 404),
    ],
)
def test_only_the_campaigns_organisers_and_staff_read_it(world, rival, who, status):
    assert client_for(world.cast, rival, who).get(url()).status_code == status


def test_anonymous_users_are_sent_to_log_in(world):
    response = client_for(world.cast, None, None).get(url())
    assert response.status_code == 302
    assert response["Location"].startswith("/login/?next=/campaigns/test-league/history/")


def test_it_merges_every_kind_of_the_campaign_and_nothing_of_another(world, rival):
    cast = world.cast
    CampaignTurn.objects.create(campaign=cast.campaign, number=1)
    ledger(cast, 1, user=cast.organiser)
    Fleet.objects.create(faction=rival.phalon, name="Phalon 68th", slug="phalon-68")
    Battle.objects.create(campaign=rival.campaign, name="Elsewhere", slug="elsewhere")
    response = client_for(cast, rival, "organiser").get(url())
    assert response.status_code == 200
    rows = labels(response)
    kinds = {k for k, _label, _change in rows}
    assert kinds == {"member", "fleet", "ship", "battle", "turn", "ledger"}
    names = {label for _k, label, _c in rows}
    assert {"Bataille de Fjordheim", "5e flotte d'incursion", "Nimrod", "1", "norge_player"} <= (
        names
    )
    assert "Phalon 68th" not in names and "Elsewhere" not in names
    # Newest first.
    times = [e.at for e in response.context["events"]]
    assert times == sorted(times, reverse=True)


def test_a_change_names_who_made_it_and_what_it_became(world, rival):
    cast = world.cast
    ship = world.damaged_ship
    ship._history_user = cast.organiser
    ship.status = Ship.Status.DESTROYED
    ship.save()
    response = client_for(cast, rival, "organiser").get(url(kind="ship", object="nimrod"))
    events = response.context["events"]
    assert [(e.change, e.detail, e.who, e.extra) for e in events] == [
        ("~", "destroyed", "organiser", "2"),
        ("+", "damaged", "", "2"),
    ]
    assert "2 cases de coque perdues" in response.content.decode()  # the page is in French


def test_filters_by_kind_who_name_and_dates(world, rival):
    cast = world.cast
    ledger(cast, 2, user=cast.organiser)
    ledger(cast, 1)
    client = client_for(cast, rival, "organiser")
    assert labels(client.get(url(kind="battle"))) == [("battle", "Bataille de Fjordheim", "+")]
    assert len(labels(client.get(url(kind="ledger", who="ORGANISER")))) == 2
    assert labels(client.get(url(object="ombre"))) == [("fleet", "Flotte de l'ombre", "+")]
    today = timezone.localdate()
    assert client.get(url(until=(today - timedelta(days=1)).isoformat())).context["events"] == []
    assert len(labels(client.get(url(kind="ledger", since=today.isoformat())))) == 3


def test_a_bad_filter_is_a_form_error_naming_the_field(world, rival):
    client = client_for(world.cast, rival, "organiser")
    for query, field in (({"since": "yesterday"}, "since"), ({"kind": "gossip"}, "kind")):
        response = client.get(url(**query))
        assert response.status_code == 400
        assert field in response.context["filters"].form.errors
        assert response.context["events"] == []


def test_pages_of_fifty_and_their_edges(cast, rival):
    ledger(cast, 120)
    client = client_for(cast, rival, "organiser")
    first = client.get(url(kind="ledger"))
    assert len(labels(first)) == 50
    # The newest first: the last created row (resources 119) heads page 1.
    assert first.context["events"][0].extra == "119 / 0"
    third = client.get(url(kind="ledger", page=3))
    assert [e.extra for e in third.context["events"]] == [f"{i} / 0" for i in range(19, -1, -1)]
    beyond = client.get(url(kind="ledger", page=99))
    assert beyond.status_code == 200 and beyond.context["listing"].page.number == 3
    for bad in ("x", "0", "-1", "1e9"):
        response = client.get(url(kind="ledger", page=bad))
        assert response.status_code == 200
        assert response.context["listing"].page.number in (1, 3)
    assert client.get(url(kind="ledger", page="x")).context["listing"].page.number == 1
    # The page links keep the filter.
    assert 'href="?kind=ledger&amp;page=2"' in first.content.decode()


def test_queries_stay_flat_from_3_to_100_rows(cast, rival, django_assert_num_queries):
    client = client_for(cast, rival, "organiser")
    ledger(cast, 3)
    # The same queries for 3 rows and 135: the log-in, the campaign, roles, count, page.
    with django_assert_num_queries(7):
        client.get(url())
    ledger(cast, 97)
    fleet = Fleet.objects.create(faction=cast.norge, name="Big", slug="big")
    for i in range(30):
        fleet.name = f"Big {i}"
        fleet.save()
    with django_assert_num_queries(7):
        response = client.get(url())
    assert response.context["listing"].page.paginator.count == 4 + 100 + 31
