"""Monte-Carlo odds of a draft battle: the service, the command and the API (organisers)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.urls import reverse

import battles.services.forecast as forecasting
from battles.models import Battle, Event
from battles.services import BattleActionError, battle_resolve
from battles.services.forecast import battle_forecast
from campaign.core.actors import SYSTEM
from tests.conftest import logged_in as _client

# These tests read the services' English messages (the French ones are the catalogue's; pages and
# API requests follow their own Accept-Language).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _snapshot(battle: Battle):
    battle.refresh_from_db()
    ships = sorted(
        (p.ship.pk, p.ship.hull_lost, p.ship.status)
        for p in battle.sides.all()[0].participants.all()
        if p.ship
    )
    return battle.status, battle.version, battle.seed, Event.objects.count(), ships


def test_forecast_counts_every_battle_and_changes_nothing(battle):
    before = _snapshot(battle)
    forecast = battle_forecast(battle=battle, battles=12, seed=5, max_turns=10)
    assert forecast.battles == 12
    slugs = tuple(side.faction.slug for side in battle.sides.order_by("order", "pk"))
    assert forecast.sides == slugs
    assert sum(forecast.wins.values()) + forecast.draws == 12
    assert sum(forecast.endings.values()) == 12
    assert _snapshot(battle) == before


def test_a_forecast_battle_is_the_battle_resolve_would_fight(battle):
    # battle i of a forecast uses seed + i: resolving with that seed gives the same winner.
    forecast = battle_forecast(battle=battle, battles=1, seed=77, max_turns=12)
    resolved = battle_resolve(user=SYSTEM, battle=battle, seed=77, max_turns=12)
    winner = resolved.winner.slug if resolved.winner_id else None
    if winner is None:
        assert forecast.draws == 1
    else:
        assert forecast.wins[winner] == 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"battles": 0}, "battles"),
        ({"battles": 10_001}, "battles"),
        ({"seed": -1}, "seed"),
        ({"max_turns": 0}, "max_turns"),
    ],
)
def test_bad_arguments_are_refused(battle, kwargs, message):
    with pytest.raises(BattleActionError, match=message):
        battle_forecast(battle=battle, **kwargs)


def test_a_concluded_battle_is_refused(battle):
    battle_resolve(user=SYSTEM, battle=battle, seed=1, max_turns=5)
    battle.refresh_from_db()
    with pytest.raises(BattleActionError, match="already concluded"):
        battle_forecast(battle=battle, battles=3)


def test_the_command_prints_shares_and_json(battle):
    out = StringIO()
    call_command(
        "forecast", battle.pk, "--battles", "6", "--max-turns", "8", stdout=out, stderr=StringIO()
    )
    text = out.getvalue()
    assert "6 battles" in text and "draw" in text and "95 %" in text and "endings:" in text
    out = StringIO()
    call_command("forecast", battle.pk, "--battles", "4", "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["battles"] == 4 and len(data["outcomes"]) == 3
    with pytest.raises(CommandError, match="no battle"):
        call_command("forecast", 999_999)
    with pytest.raises(CommandError, match="battles"):
        call_command("forecast", battle.pk, "--battles", "0", stderr=StringIO())


def test_the_api_answers_organisers_only(cast, battle):
    url = f"/api/battles/{battle.pk}/forecast"
    response = _client(cast.organiser).get(url, {"battles": 5, "seed": 2, "max_turns": 8})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["battles"] == 5 and body["seed"] == 2
    assert sum(o["battles"] for o in body["outcomes"]) == 5
    for o in body["outcomes"]:
        assert 0 <= o["interval_95"][0] <= o["share"] <= o["interval_95"][1] <= 1
    # A player of a side is told why; anyone else may not see the draft: 404 (F-17).
    for who, status in (
        ("norge_player", 404),
        ("qatzrin_player", 403),
        ("chronicler", 404),
        ("outsider", 404),
    ):
        assert _client(getattr(cast, who)).get(url).status_code == status, who
    assert _client().get(url).status_code == 401
    assert _client(cast.organiser).get(url, {"battles": 501}).status_code == 422
    assert _client(cast.organiser).get("/api/battles/999999/forecast").status_code == 404


def test_the_api_refusal_is_400_with_the_message(cast, battle):
    battle_resolve(user=SYSTEM, battle=battle, seed=1, max_turns=5)
    response = _client(cast.organiser).get(f"/api/battles/{battle.pk}/forecast")
    assert response.status_code == 400
    assert (
        "est déjà conclue\u202f: ses flottes portent désormais ses dégâts"
        in response.json()["detail"]
    )


class _Counting:
    """``win_odds`` with a count of the calls (the real engine still fights)."""

    def __init__(self, real):
        self.real, self.calls = real, 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.real(*args, **kwargs)


def test_the_page_forecast_is_computed_once_per_set_up(cast, battle, monkeypatch):
    cache.clear()
    counting = _Counting(forecasting.win_odds)
    monkeypatch.setattr(forecasting, "win_odds", counting)
    client = _client(cast.organiser)
    url = reverse("battle-forecast", args=[battle.pk])
    first = client.get(url)
    assert first.status_code == 200 and counting.calls == 1
    second = client.get(url)
    assert counting.calls == 1  # the second load reads the cache
    assert second.content == first.content
    # The set-up changes (a ship carries damage now): the forecast is fought again.
    ship = battle.sides.get(order=0).participants.filter(ship__isnull=False).first().ship
    ship.hull_lost = 2
    ship.save()
    client.get(url)
    assert counting.calls == 2
    client.get(url)
    assert counting.calls == 2
    # A ship leaves the battle: new set-up, new forecast.
    battle.sides.get(order=1).participants.filter(ship__isnull=False).first().delete()
    client.get(url)
    assert counting.calls == 3
    # Another seed or count (the API's arguments) is another forecast; the same one is not.
    battle_forecast(battle=battle, battles=100, seed=0)
    assert counting.calls == 3
    battle_forecast(battle=battle, battles=100, seed=1)
    assert counting.calls == 4
    # Non-organisers are refused before anything is computed.
    assert _client(cast.qatzrin_player).get(url).status_code == 403
    assert _client(cast.outsider).get(url).status_code == 404
    assert counting.calls == 4


def test_the_preview_page_does_not_fight_the_forecast(cast, battle, monkeypatch):
    counting = _Counting(forecasting.win_odds)
    monkeypatch.setattr(forecasting, "win_odds", counting)
    battle.seed = 3
    battle.save()
    page = _client(cast.organiser).get(
        reverse("battle-resolve", args=[battle.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert page.status_code == 200 and counting.calls == 0
    # The forecast comes after the page, with a visible "computing" note meanwhile.
    assert b'hx-get="' + reverse("battle-forecast", args=[battle.pk]).encode() in page.content
    assert "Computing the forecast" in page.content.decode()
