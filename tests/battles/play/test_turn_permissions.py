"""Who may open and act on the turn-by-turn page, the replay viewer and their API
endpoints: organiser / own player / rival player / chronicler / outsider / anonymous,
and the organiser of another campaign (404: no existence leak). A rival never sees the
other side's orders before the turn is played."""

from __future__ import annotations

import pytest
from django.test import Client

from battles.models import Battle
from battles.models.turn_orders import TurnOrders, TurnPlay
from battles.play.game_turns import turn_orders_submit, turn_play_end, turn_play_start
from campaign.core.actors import SYSTEM
from campaign.league.models import Campaign, Membership
from tests.battles.battle_fixtures import SEED, draft_skirmish
from tests.db_rows import row_counts, rows_of

pytestmark = pytest.mark.django_db

#: Qatzrin's secret orders: a notation nobody else writes.
SECRET = "+3, 1B, 11"
WHO = ("organiser", "own", "rival", "chronicler", "outsider", "anonymous", "other_organiser")


@pytest.fixture
def game(duel, django_user_model):
    other = Campaign.objects.create(name="Other league", slug="other-league")
    other_organiser = django_user_model.objects.create_user("other_organiser", password="pw")
    Membership.objects.create(campaign=other, user=other_organiser, role=Membership.Role.ORGANISER)
    turn_play_start(user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=5)
    duel.q = f"ship-{duel.qatzrin_side.participants.filter(ship__isnull=False).first().ship_id}"
    turn_orders_submit(
        user=SYSTEM,
        battle=duel.battle,
        side=duel.qatzrin_side,
        orders={duel.q: {"movement": SECRET}},
    )
    duel.users = {
        "organiser": duel.cast.organiser,
        "own": duel.cast.qatzrin_player,
        "rival": duel.phalon_player,
        "chronicler": duel.cast.chronicler,
        "outsider": duel.cast.outsider,
        "anonymous": None,
        "other_organiser": other_organiser,
    }
    return duel


def client(game, who: str) -> Client:
    c = Client()
    if game.users[who] is not None:
        c.force_login(game.users[who])
    return c


PAGES = {
    # who -> expected status
    "turns": dict(zip(WHO, (200, 200, 200, 404, 404, 404, 404), strict=True)),
    "replay": dict(zip(WHO, (200, 200, 200, 404, 404, 404, 404), strict=True)),
}


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("page", sorted(PAGES))
def test_pages_of_a_battle_being_fought(game, who, page):
    response = client(game, who).get(f"/battles/{game.battle.pk}/{page}/")
    assert response.status_code == PAGES[page][who]


@pytest.mark.parametrize("who", WHO)
def test_only_the_organiser_and_own_side_see_qatzrins_orders_before_the_turn(game, who):
    c = client(game, who)
    seen = []
    for url in (
        f"/battles/{game.battle.pk}/turns/",
        f"/battles/{game.battle.pk}/replay/",
        f"/api/battles/{game.battle.pk}/turns",
        f"/api/battles/{game.battle.pk}/board",
    ):
        response = c.get(url)
        if response.status_code == 200:
            seen.append(SECRET in response.content.decode())
    if who == "organiser":
        assert seen[0] is True  # the organiser's page lists the orders in
    elif who == "own":
        assert seen[0] is True and seen[2] is True  # the form and own_orders
    else:
        assert True not in seen


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("organiser", 403),
        ("own", 302),
        ("rival", 302),  # their own side's (empty) orders: plays the turn
        ("chronicler", 404),
        ("outsider", 404),
        ("anonymous", 302),  # to the login page, before any lookup
        ("other_organiser", 404),
    ],
)
def test_orders_form(game, who, expected):
    response = client(game, who).post(f"/battles/{game.battle.pk}/turns/orders/", {})
    assert response.status_code == expected
    if who == "anonymous":
        assert response["Location"].startswith("/login/?next=")
    played = TurnPlay.objects.get(battle=game.battle).turns_played
    assert played == (1 if who == "rival" else 0)


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("organiser", 403),
        ("own", 200),
        ("rival", 404),  # not their ship
        ("chronicler", 404),
        ("outsider", 404),
        ("anonymous", 302),  # to the login page, before any lookup
        ("other_organiser", 404),
    ],
)
def test_movement_preview(game, who, expected):
    response = client(game, who).post(
        f"/battles/{game.battle.pk}/turns/preview/", {"ship": game.q, f"movement-{game.q}": "+1"}
    )
    assert response.status_code == expected


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("organiser", 302),
        ("own", 403),
        ("rival", 403),
        ("chronicler", 404),
        ("outsider", 404),
        ("anonymous", 302),  # to the login page, before any lookup
        ("other_organiser", 404),
    ],
)
@pytest.mark.parametrize("action", ["play", "end"])
def test_organiser_controls(game, who, expected, action):
    response = client(game, who).post(
        f"/battles/{game.battle.pk}/turns/{action}/", {"confirm": "yes"}
    )
    assert response.status_code == expected
    game.battle.refresh_from_db()
    concluded = game.battle.status == Battle.Status.CONCLUDED
    assert concluded == (who == "organiser" and action == "end")
    if who == "anonymous":
        assert response["Location"].startswith("/login/?next=")


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("organiser", 302),
        ("own", 403),
        ("rival", 403),
        ("chronicler", 404),
        ("outsider", 404),
        ("anonymous", 302),  # to the login page, before any lookup
        ("other_organiser", 404),
    ],
)
def test_start(game, who, expected):
    other = draft_skirmish(game.cast.campaign, qatzrin=("Sa'ar",), phalon=("Tsaara",), slug="b2")
    response = client(game, who).post(f"/battles/{other.pk}/turns/start/", {"max_turns": "3"})
    assert response.status_code == expected
    assert TurnPlay.objects.filter(battle=other).exists() == (who == "organiser")
    if who == "anonymous":
        assert response["Location"].startswith("/login/?next=")


API = {
    # (method, path) -> (body, expected per who)
    ("get", "turns"): (None, (200, 200, 200, 404, 404, 404, 404)),
    ("get", "board"): (None, (200, 200, 200, 404, 404, 404, 404)),
    ("put", "turns/orders"): ({"orders": {}}, (403, 200, 200, 404, 404, 401, 404)),
    ("post", "turns/play"): ({}, (200, 403, 403, 404, 404, 401, 404)),
    ("post", "turns/deadline"): ({"deadline": None}, (200, 403, 403, 404, 404, 401, 404)),
}


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("call", sorted(API, key=str))
def test_api_matrix(game, who, call):
    method, path = call
    body, statuses = API[call]
    c = client(game, who)
    url = f"/api/battles/{game.battle.pk}/{path}"
    before = row_counts(), stored(game)
    if body is None:
        response = c.get(url)
    else:
        response = getattr(c, method)(url, body, content_type="application/json")
    expected = dict(zip(WHO, statuses, strict=True))[who]
    assert response.status_code == expected, response.content
    if expected >= 400 or method == "get":
        assert (row_counts(), stored(game)) == before  # a refusal writes nothing


def stored(game) -> list[list[dict]]:
    """The battle's turn-play rows as stored: its play, every side's orders, the battle."""
    battle = game.battle.pk
    return [rows_of(TurnPlay, battle=battle), rows_of(TurnOrders, battle=battle)] + [
        rows_of(Battle, pk=battle)
    ]


def test_api_orders_for_the_other_sides_ship_repeat_its_id_and_store_nothing(game):
    response = client(game, "rival").put(
        f"/api/battles/{game.battle.pk}/turns/orders",
        {"orders": {game.q: {"movement": "+1"}}},
        content_type="application/json",
    )
    assert response.status_code == 400
    # The id as sent, in the words every id not of the side gets (no oracle).
    assert response.json()["detail"] == (
        f"'{game.q}'\u202f: pas un vaisseau de votre camp dans cette bataille\u202f; "
        "rien n’a été enregistré"
    )
    assert TurnPlay.objects.get(battle=game.battle).turns_played == 0


def test_once_concluded_everyone_sees_the_replay_without_hidden_fleets(game):
    turn_play_end(user=SYSTEM, battle=game.battle)
    fleet = game.phalon_side.fleet
    fleet.hidden = True
    fleet.save()
    hidden_ship = game.phalon_side.participants.filter(ship__isnull=False).first().ship
    for who in WHO:
        response = client(game, who).get(f"/api/battles/{game.battle.pk}/board")
        assert response.status_code == 200, who
        ids = {m["id"] for frame in response.json()["frames"] for m in frame}
        text = response.content.decode()
        if who in ("organiser", "rival"):
            assert f"ship-{hidden_ship.pk}" in ids
        elif who == "own":
            # Sensors: seen only as its side's sensors allowed, never by name.
            assert hidden_ship.ship_class.name + " 1" not in text
        else:
            assert f"ship-{hidden_ship.pk}" not in ids
            assert f"ship-{hidden_ship.pk}" not in text
            assert "Tsaara 1" not in text
        page = client(game, who).get(f"/battles/{game.battle.pk}/replay/")
        assert page.status_code == 200


def test_campaign_page_sends_a_turn_by_turn_battle_to_its_turn_page_not_to_record(game):
    """While a battle is fought turn by turn the record form would refuse it: the campaign
    page lists it under the battles being fought, with no record link."""
    slug = game.battle.campaign.slug
    html = client(game, "own").get(f"/campaigns/{slug}/").content.decode()
    assert f"/battles/{game.battle.pk}/turns/" in html
    assert f"/battles/{game.battle.pk}/record/" not in html


def test_the_flash_says_whether_the_orders_played_the_turn(duel):
    turn_play_start(user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=5)
    url = f"/battles/{duel.battle.pk}/turns/orders/"
    first = client_of(duel.cast.qatzrin_player).post(url, {}, follow=True).content.decode()
    assert "Ordres enregistrés\u202f; l’autre camp ne les voit" in first
    second = client_of(duel.phalon_player).post(url, {}, follow=True).content.decode()
    assert "Ordres enregistrés\u202f; le tour 1 a été joué." in second
    assert TurnPlay.objects.get(battle=duel.battle).turns_played == 1


def client_of(user) -> Client:
    c = Client()
    c.force_login(user)
    return c
