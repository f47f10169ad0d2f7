"""The map page and its move forms: the permission matrix, what each reader sees, bad
input refused with nothing written, query count flat as systems grow."""

import pytest

from campaign.starmap.models import MapMove, StarSystem
from campaign.turns.closing import campaign_turn_open
from factions.models import Fleet
from tests.conftest import client_for

pytestmark = pytest.mark.usefixtures("english")


def en_client(cast, rival, who):
    """A test client of ``who`` reading the pages and answers in English."""
    return client_for(cast, rival, who, HTTP_ACCEPT_LANGUAGE="en")


@pytest.fixture
def turn(starmap):
    campaign_turn_open(campaign=starmap.campaign, user=starmap.organiser)
    return starmap


def url(s, suffix=""):
    return f"/campaigns/{s.campaign.slug}/map/{suffix}"


@pytest.mark.parametrize(
    ("who", "status", "seen", "hidden"),
    [
        ("organiser", 200, ["Home Fleet", "Raiders", "Shadow"], []),
        ("norge_player", 200, ["Home Fleet", "Raiders"], ["Shadow"]),
        ("qatzrin_player", 200, ["Home Fleet", "Raiders", "Shadow"], []),
        ("chronicler", 200, ["Home Fleet", "Raiders"], ["Shadow"]),
        ("outsider", 404, [], []),
        ("other_org", 404, [], []),
        (None, 302, [], []),
    ],
)
def test_map_page_matrix(turn, rival, who, status, seen, hidden):
    response = en_client(turn, rival, who).get(url(turn))
    assert response.status_code == status
    body = response.content.decode()
    for name in seen:
        assert name in body
    for name in hidden:
        assert name not in body
    if status == 200:
        assert "<svg" in body and "style=" not in body.split("<svg", 1)[1].split("</svg>")[0]


def test_player_sees_only_own_move_forms(turn, rival):
    body = en_client(turn, rival, "norge_player").get(url(turn)).content.decode()
    assert f'<option value="{turn.home.pk}">Home Fleet (Kongeriket Norge)</option>' in body
    assert "Raiders (Qatzrin)</option>" not in body
    body = en_client(turn, rival, "chronicler").get(url(turn)).content.decode()
    assert 'name="fleet"' not in body


@pytest.mark.parametrize(
    ("who", "fleet", "status", "written"),
    [
        ("organiser", "raiders", 302, True),
        ("norge_player", "home", 302, True),
        ("qatzrin_player", "home", 404, False),
        ("chronicler", "home", 403, False),
        ("outsider", "home", 404, False),
        ("other_org", "home", 404, False),
        (None, "home", 302, False),
    ],
)
def test_move_order_matrix(turn, rival, who, fleet, status, written):
    fleet = getattr(turn, fleet)
    response = en_client(turn, rival, who).post(
        url(turn, "moves/"), {"fleet": fleet.pk, "destination": turn.vega.pk}
    )
    assert response.status_code == status
    assert MapMove.objects.filter(fleet=fleet).exists() is written


def test_bad_move_shows_the_error_and_writes_nothing(turn, rival):
    client = en_client(turn, rival, "norge_player")
    response = client.post(
        url(turn, "moves/"), {"fleet": turn.home.pk, "destination": turn.far.pk}, follow=True
    )
    assert "destination: no link leads from Sol to Far" in response.content.decode()
    response = client.post(
        url(turn, "moves/"), {"fleet": turn.home.pk, "destination": "x"}, follow=True
    )
    assert "destination: choose a system of the map" in response.content.decode()
    assert MapMove.objects.count() == 0


def test_cancel_matrix(turn, rival):
    client = en_client(turn, rival, "norge_player")
    client.post(url(turn, "moves/"), {"fleet": turn.home.pk, "destination": turn.vega.pk})
    move = MapMove.objects.get()
    assert (
        en_client(turn, rival, "qatzrin_player")
        .post(url(turn, f"moves/{move.pk}/cancel/"))
        .status_code
        == 404
    )
    assert (
        en_client(turn, rival, "chronicler").post(url(turn, f"moves/{move.pk}/cancel/")).status_code
        == 403
    )
    assert client.post(url(turn, f"moves/{move.pk}/cancel/")).status_code == 302
    move.refresh_from_db()
    assert move.status == "cancelled"


def test_map_page_queries_flat_as_systems_grow(turn, rival, django_assert_max_num_queries):
    client = en_client(turn, rival, "norge_player")
    with django_assert_max_num_queries(40) as small:
        client.get(url(turn))
    StarSystem.objects.bulk_create(
        StarSystem(campaign=turn.campaign, name=f"S{i}", slug=f"s{i}", x=i, y=i) for i in range(60)
    )
    with django_assert_max_num_queries(len(small.captured_queries)):
        response = client.get(url(turn))
    assert response.content.decode().count('id="system-') == 65


def test_turn_page_sends_moves_to_the_map(turn, rival):
    body = (
        en_client(turn, rival, "norge_player")
        .get(f"/campaigns/{turn.campaign.slug}/turn/")
        .content.decode()
    )
    assert "order the moves on the star map" in body
    assert 'action="/campaigns/test-league/moves/"' not in body


def test_refusal_in_french(turn, rival):
    response = client_for(turn, rival, "norge_player").post(
        url(turn, "moves/"), {"fleet": turn.home.pk, "destination": turn.far.pk}, follow=True
    )
    body = response.content.decode()
    assert "aucune liaison ne mène de Sol à Far" in body and "Carte stellaire" in body


@pytest.mark.parametrize(
    ("who", "status", "placed"),
    [
        ("organiser", 302, True),
        ("staff", 302, True),
        ("norge_player", 403, False),
        ("qatzrin_player", 403, False),
        ("chronicler", 403, False),
        ("outsider", 404, False),
        ("other_org", 404, False),
        (None, 302, False),
    ],
)
def test_place_a_fleet_matrix(turn, rival, who, status, placed):
    order = en_client(turn, rival, "norge_player")
    order.post(url(turn, "moves/"), {"fleet": turn.home.pk, "destination": turn.vega.pk})
    response = en_client(turn, rival, who).post(
        url(turn, "place/"), {"fleet": turn.home.pk, "system": turn.rigel.pk}
    )
    assert response.status_code == status
    turn.home.refresh_from_db()
    assert (turn.home.position.system == turn.rigel) is placed
    # placed at a rival's system: at no territory of its own; its order cancelled
    assert (turn.home.territory is None) is placed
    assert MapMove.objects.get().status == ("cancelled" if placed else "queued")


def test_place_form_only_for_organisers_and_bad_input(turn, rival):
    assert "Place the fleet" in en_client(turn, rival, "organiser").get(url(turn)).content.decode()
    assert (
        "Place the fleet"
        not in en_client(turn, rival, "norge_player").get(url(turn)).content.decode()
    )
    response = en_client(turn, rival, "organiser").post(
        url(turn, "place/"), {"fleet": turn.home.pk, "system": "x"}, follow=True
    )
    assert "system: choose a system of the map" in response.content.decode()
    turn.home.refresh_from_db()
    assert turn.home.position.system == turn.sol


def test_another_campaigns_hidden_fleet_is_404_and_never_named(turn, rival):
    """An organiser posting the id of a hidden fleet of another campaign learns nothing of
    it: 404, as for a fleet that does not exist, and nothing written."""
    armada = Fleet.objects.create(
        faction=rival.phalon, name="Secret Armada", slug="secret-armada", hidden=True
    )
    response = en_client(turn, rival, "organiser").post(
        url(turn, "moves/"), {"fleet": armada.pk, "destination": turn.vega.pk}, follow=True
    )
    assert response.status_code == 404
    assert "Secret Armada" not in response.content.decode()
    assert MapMove.objects.count() == 0


def test_the_links_read_in_each_language(turn, rival):
    """Each link's travel time follows the reader's typography: "Sol – Vega: 1 turn" in
    English, a narrow no-break space before the colon in French."""
    french = client_for(turn, rival, "norge_player").get(url(turn)).content.decode()
    assert "<li>Sol – Vega\u202f: 1 tour</li>" in french
    assert "<li>Vega – Rigel\u202f: 2 tours</li>" in french
    english = en_client(turn, rival, "norge_player").get(url(turn)).content.decode()
    assert "<li>Sol – Vega: 1 turn</li>" in english
    assert "<li>Vega – Rigel: 2 turns</li>" in english


def test_a_turn_never_opened_has_no_map_and_no_form_between_turns(starmap, rival):
    client = en_client(starmap, rival, "norge_player")
    # No turn open yet: the map shows, the move form does not, and a note says why.
    body = client.get(url(starmap)).content.decode()
    assert 'id="no-open-turn">Moves are ordered while a campaign turn is open.' in body
    assert 'name="destination"' not in body
    assert client.get(url(starmap, "?turn=1")).status_code == 404
    campaign_turn_open(campaign=starmap.campaign, user=starmap.organiser)
    body = client.get(url(starmap)).content.decode()
    assert 'name="destination"' in body and "no-open-turn" not in body
    assert client.get(url(starmap, "?turn=1")).status_code == 200
    assert client.get(url(starmap, "?turn=99")).status_code == 404
