"""After set-up, the page the chosen mode leads to (auto-resolve, record from the table,
turn by turn); the record form is not offered for a battle being fought turn by turn."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from battles.models import Battle
from battles.play.game_turns import turn_play_start
from campaign.core.actors import SYSTEM
from factions.models import Ship
from tests.battles.battle_fixtures import SEED

pytestmark = pytest.mark.django_db


def _organiser(cast) -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(cast.organiser)
    return c


def _free_ship(slug: str, name: str) -> Ship:
    model = Ship.objects.filter(fleet__faction__slug=slug).first()
    return Ship.objects.create(ship_class=model.ship_class, fleet=model.fleet, name=name)


@pytest.mark.parametrize(
    "mode, page",
    [
        ("resolved", "battle-resolve"),
        ("recorded", "battle-record"),
        ("turns", "battle-turns"),
        (None, "battle-resolve"),  # a form of before the choice: as it always went
    ],
)
def test_setup_leads_where_the_mode_chosen_leads(league, mode, page):
    c = _organiser(league)
    url = reverse("battle-setup", args=[league.campaign.slug])
    form = c.get(url).content.decode()
    for value in ("resolved", "recorded", "turns"):
        assert f'name="mode" value="{value}"' in form
    ships = [_free_ship("qatzrin", "Free Sa'ar").pk, _free_ship("phalon", "Free Phalon").pk]
    data = {
        "name": "Second clash",
        "campaign_turn": 3,
        "faction_a": league.qatzrin.pk,
        "faction_b": league.battle.sides.get(faction__slug="phalon").faction_id,
        "ships": ships,
    }
    if mode:
        data["mode"] = mode
    response = c.post(url, data)
    battle = Battle.objects.get(name="Second clash")
    assert response.status_code == 302
    assert response["Location"] == reverse(page, args=[battle.pk])
    # The page it leads to opens for the organiser.
    assert c.get(response["Location"]).status_code == 200


def test_setup_refuses_an_unknown_mode_naming_the_field(league):
    c = _organiser(league)
    url = reverse("battle-setup", args=[league.campaign.slug])
    response = c.post(url, {"name": "X", "campaign_turn": 3, "mode": "dice"})
    assert response.status_code == 200
    assert response.context["form"].errors["mode"] == [
        "Select a valid choice. dice is not one of the available choices."
    ]
    assert not Battle.objects.filter(name="X").exists()


def test_no_record_form_for_a_battle_fought_turn_by_turn(duel):
    turn_play_start(user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=5)
    record = reverse("battle-record", args=[duel.battle.pk])
    organiser = _organiser(duel.cast)
    detail = organiser.get(reverse("battle-detail", args=[duel.battle.pk])).content.decode()
    assert f'href="{record}"' not in detail
    player = Client(HTTP_ACCEPT_LANGUAGE="en")
    player.force_login(duel.cast.qatzrin_player)
    briefing = player.get(reverse("battle-detail", args=[duel.battle.pk])).content.decode()
    assert f'href="{record}"' not in briefing
    assert reverse("battle-turns", args=[duel.battle.pk]) in briefing
    for client in (organiser, player):
        response = client.get(record, follow=True)
        assert response.redirect_chain == [(reverse("battle-turns", args=[duel.battle.pk]), 302)]
        assert (
            "This battle is being fought turn by turn: it cannot be recorded from the table "
            "until its play ends."
        ) in response.content.decode()
    api = organiser.post(
        f"/api/battles/{duel.battle.pk}/record",
        {"results": [], "outcome": "x"},
        content_type="application/json",
    )
    assert api.status_code == 400
    assert api.json()["detail"] == (
        f"battle {duel.battle.pk} (Skirmish skirmish) is being fought turn by turn (turn 1 of "
        "at most 5): end its turn-by-turn play first; nothing changed"
    )


def test_a_battle_set_up_turn_by_turn_says_so_until_it_starts(league):
    """Right after a turn-by-turn set-up the page said "not being fought turn by turn"."""
    Battle.objects.filter(pk=league.battle.pk).update(mode=Battle.Mode.TURNS)
    url = reverse("battle-turns", args=[league.battle.pk])
    start = reverse("battle-turns-start", args=[league.battle.pk])
    organiser = _organiser(league).get(url).content.decode()
    assert "Set up to be fought turn by turn, not started yet: start it below." in organiser
    assert f'action="{start}"' in organiser
    assert "not being fought turn by turn" not in organiser
    player = Client(HTTP_ACCEPT_LANGUAGE="fr")
    player.force_login(league.qatzrin_player)
    page = player.get(url).content.decode()
    assert (
        "Prévue pour être livrée tour par tour, pas encore commencée\u202f: les organisateurs "
        "la lancent, puis chaque camp donne ici ses ordres."
    ) in page
    assert start not in page and "pas jouée tour par tour" not in page
    # Another mode still says it is not fought turn by turn.
    Battle.objects.filter(pk=league.battle.pk).update(mode=Battle.Mode.RESOLVED)
    other = _organiser(league).get(url).content.decode()
    assert "This battle is not being fought turn by turn." in other
    assert "not started yet" not in other
