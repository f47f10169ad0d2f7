"""The battle page's report is built once per version of the battle, language and
visibility class (``battles.reports.page_cache``): a second reader of the same class is
answered from the cache, every kind of committed write shows at once, and nothing built
for one reader's class is served to another's.

These tests commit for real (``transaction=True``): inside a test wrapped in a
transaction the fleet data version is read around (``factions.versioning.read_version``)
and the report is built every time, as for any request whose transaction has written.
"""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from battles.models import Battle, BattleAction, BattleSide, Event, Participant
from factions.models import Faction, Fleet, Ship

pytestmark = pytest.mark.django_db(transaction=True)


def _client(user=None, language: str = "fr") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    return client


def _page(client: Client, battle) -> tuple[str, int]:
    """The page's report (``report-wrap``, without the request's CSP nonce) and the
    queries it took."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/battles/{battle.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    report = html[html.index('<div class="report-wrap">') :]
    return re.sub(r' nonce="[^"]*"', "", report), len(queries)


def test_a_second_reader_of_the_same_class_is_answered_from_the_cache(world):
    first, built = _page(_client(), world.battle)
    again, cached = _page(_client(), world.battle)
    assert again == first
    assert cached < built
    assert "Nimrod" in first  # a public fleet's ship: named


def _rename_ship(world):
    Ship.objects.filter(pk=world.damaged_ship.pk).update(name="Nimrod II")
    return "Nimrod II"


def _note_participant(world):
    # A participant changed in place, the battle row untouched.
    Participant.objects.filter(ship=world.damaged_ship).update(notes="Abordé deux fois")
    return "Abordé deux fois"


def _battle_texts(world):
    Battle.objects.filter(pk=world.battle.pk).update(narrative="Un récit **tout neuf**.")
    return "tout neuf"


def _side_objective(world):
    BattleSide.objects.filter(battle=world.battle, order=0).update(
        primary_objective="Prendre la lune."
    )
    return "Prendre la lune."


def _log_line(world):
    Event.objects.create(battle=world.battle, sequence=1, kind="note", summary="Le Nimrod vire.")
    return "Le Nimrod vire."


@pytest.mark.parametrize(
    "write", [_rename_ship, _note_participant, _battle_texts, _side_objective, _log_line]
)
def test_every_write_shows_at_once(world, write):
    client = _client()
    _page(client, world.battle)
    before, _ = _page(client, world.battle)  # cached
    shown = write(world)
    assert shown not in before
    after, _ = _page(client, world.battle)
    assert shown in after


def test_a_fleet_hidden_after_the_page_was_cached_is_hidden_at_once(world):
    client = _client()
    _page(client, world.battle)
    assert "Nimrod" in _page(client, world.battle)[0]
    Fleet.objects.filter(pk=world.public_fleet.pk).update(hidden=True)
    assert "Nimrod" not in _page(client, world.battle)[0]


@pytest.mark.parametrize("first", ["norge_player", None, "qatzrin_player"])
def test_one_sides_view_never_reaches_another(world, first):
    """Fenrir (Norway's hidden fleet) is named to Norway's player only, whoever read
    the page first; each reader reads it twice (the second time from the cache)."""
    cast = world.cast
    readers = [first] + [who for who in ("norge_player", None, "qatzrin_player") if who != first]
    for who in readers:
        client = _client(getattr(cast, who) if who else None)
        for _ in range(2):
            report, _ = _page(client, world.battle)
            assert ("Fenrir" in report) == (who == "norge_player"), who


def test_an_unpublished_reports_texts_reach_its_chroniclers_only(world):
    Battle.objects.filter(pk=world.battle.pk).update(report_state=Battle.ReportState.DRAFT)
    for who in ("chronicler", None, "chronicler", "outsider", None):
        client = _client(getattr(world.cast, who) if who else None)
        report, _ = _page(client, world.battle)
        assert ("Une victoire nette." in report) == (who == "chronicler"), who


def test_each_language_has_its_own_report(world):
    for _ in range(2):
        assert ">damaged<" in _page(_client(language="en"), world.battle)[0]
        french = _page(_client(language="fr"), world.battle)[0]
        assert ">endommagé<" in french
        assert ">damaged<" not in french


def _grow(world, n: int) -> None:
    """``n`` log lines and ``n`` ships of the public fleet fighting in the battle."""
    side = world.battle.sides.get(faction=world.cast.qatzrin)
    have = Participant.objects.filter(side=side).count()
    ships = Ship.objects.bulk_create(
        [
            Ship(ship_class=world.saar, fleet=world.public_fleet, name=f"Grown {i}")
            for i in range(have, n)
        ]
    )
    Participant.objects.bulk_create([Participant(side=side, ship=s, fate="damaged") for s in ships])
    last = Event.objects.filter(battle=world.battle).count()
    Event.objects.bulk_create(
        [
            Event(
                battle=world.battle, sequence=i, game_turn=1 + i // 10, kind="note", summary=f"L{i}"
            )
            for i in range(last, n)
        ]
    )


@pytest.mark.parametrize("who", [None, "norge_player", "organiser"])
def test_queries_stay_flat_from_3_to_100_ships_and_log_lines(world, who, django_assert_num_queries):
    client = _client(getattr(world.cast, who) if who else None)
    _grow(world, 3)
    cache.clear()
    built = _page(client, world.battle)[1]
    cached = _page(client, world.battle)[1]
    assert cached < built
    _grow(world, 100)
    assert Event.objects.filter(battle=world.battle).count() == 100
    cache.clear()
    with django_assert_num_queries(built):
        report, _ = _page(client, world.battle)
    assert "Grown 99" in report and "L99" in report
    with django_assert_num_queries(cached):
        _page(client, world.battle)


@pytest.mark.parametrize("first", ["organiser", "qatzrin_player", "norge_player"])
def test_each_perspective_has_its_own_odds_panel(world, first):
    """The odds panel is cached beside the report per perspective: the organiser's
    names every ship (Fenrir of Norway's hidden fleet too), Qatzrin's player's only
    Nimrod's weapons and no hidden ship; Norway's player has none (Fenrir's design has no
    weapon). Whoever read first, each twice."""
    cast = world.cast
    readers = [first] + [w for w in ("organiser", "qatzrin_player", "norge_player") if w != first]
    for who in readers:
        client = _client(getattr(cast, who))
        for _ in range(2):
            page, _ = _page(client, world.battle)
            assert ('class="odds-panel"' in page) == (who != "norge_player"), who
            assert ("Fenrir" in page) == (who != "qatzrin_player"), who


def _panel(client: Client, battle) -> str:
    """The organisers' panel of the battle page."""
    html = client.get(f"/battles/{battle.pk}/").content.decode()
    start = html.index('aria-labelledby="h-organiser"')
    return html[start : html.index("</section>", start)]


def _timeline_entry(world):
    BattleAction.objects.create(
        battle=world.battle, user=world.cast.organiser, kind="conclude", summary="Clos à la main."
    )
    return "Clos à la main."


def _objectives_met(world):
    BattleSide.objects.filter(battle=world.battle, order=0).update(objectives_met=42)
    return 'value="42"'


def _faction_renamed(world):
    Faction.objects.filter(pk=world.cast.qatzrin.pk).update(name="Qatzrin-Est")
    return "Qatzrin-Est"


@pytest.mark.parametrize("write", [_timeline_entry, _objectives_met, _faction_renamed])
def test_the_organisers_panel_shows_every_write_at_once(world, write):
    client = _client(world.cast.organiser)
    _panel(client, world.battle)
    before = _panel(client, world.battle)  # cached
    shown = write(world)
    assert shown not in before
    assert shown in _panel(client, world.battle)


def test_the_organisers_panel_carries_each_sessions_own_csrf_token(world):
    """The panel is cached, its forms' CSRF token is not: each organiser's session posts
    with its own, and it is accepted."""
    tokens = []
    for _ in range(2):
        client = Client(HTTP_ACCEPT_LANGUAGE="fr", enforce_csrf_checks=True)
        client.force_login(world.cast.organiser)
        panel = _panel(client, world.battle)
        found = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', panel)
        assert found and len(set(found)) == 1
        tokens.append(found[0])
        response = client.post(
            f"/battles/{world.battle.pk}/objectives/", {"csrfmiddlewaretoken": found[0]}
        )
        assert response.status_code == 302
    assert tokens[0] != tokens[1]
    assert "csrfstandin" not in panel
