"""French spacing only on French pages: English pages write "Winner: Phalon", French ones
"Vainqueur : Phalon" with the narrow no-break space, headings included."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from battles.services import record_submit

pytestmark = pytest.mark.django_db

NNBSP = "\u202f"


def _page(user, url: str, language: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def _entry_line(page: str) -> str:
    return page.split('class="entry-detail"')[1].split("<p>")[1].split("</p>")[0]


def test_the_record_page_spaces_its_colons_by_language(league):
    battle = league.battle
    side = battle.sides.get(faction__slug="qatzrin")
    record_submit(
        battle=battle,
        side=side,
        user=league.qatzrin_player,
        winner="phalon",
        game_turns=4,
        results=[],
    )
    url = reverse("battle-record", args=[battle.pk])
    english = _page(league.phalon_player, url, "en")
    assert _entry_line(english) == "Winner: Phalon · Game turns played: 4"
    assert f"<h1>Record the game played on the table: {battle.name}</h1>" in english
    french = _page(league.phalon_player, url, "fr")
    assert _entry_line(french) == (f"Vainqueur{NNBSP}: Phalon · Tours de jeu joués{NNBSP}: 4")
    assert f"<h1>Enregistrer la partie jouée sur la table{NNBSP}: {battle.name}</h1>" in french


def test_the_auto_resolve_heading_has_its_french_space(league):
    url = reverse("battle-resolve", args=[league.battle.pk])
    french = _page(league.organiser, url, "fr")
    assert f"<h1>Résolution automatique{NNBSP}: {league.battle.name}</h1>" in french
    english = _page(league.organiser, url, "en")
    assert f"<h1>Auto-resolve: {league.battle.name}</h1>" in english


def test_the_campaign_page_spaces_an_unconcluded_battle_by_language(league):
    url = league.campaign.get_absolute_url()
    assert f"Non conclue{NNBSP}: {league.battle.name}" in _page(league.organiser, url, "fr")
    assert f"Unconcluded: {league.battle.name}" in _page(league.organiser, url, "en")


def test_a_turns_summary_separates_its_parts_by_language():
    from types import SimpleNamespace

    from django.utils import translation

    from battles.reports.turn_log import _turn_summary

    events = [
        SimpleNamespace(kind="damage-destroyed", data={}, summary="Tyr destroyed: hull"),
        SimpleNamespace(kind="withdraw", data={}, summary="Hanit withdraws"),
    ]
    with translation.override("fr"):
        french = _turn_summary(events, None)
    with translation.override("en"):
        english = _turn_summary(events, None)
    assert f"Tyr{NNBSP}; " in french and f"{NNBSP}:" in french
    assert "Tyr; withdrew: Hanit" in english and NNBSP not in english
