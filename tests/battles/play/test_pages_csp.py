"""The turn-by-turn, replay and battle pages run under a strict Content Security Policy:
no inline script (the board's data is ``application/json``, never executed), no ``on*``
handler attribute and no ``style`` attribute."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from battles.play.game_turns import turn_orders_submit, turn_play_start
from campaign.core.actors import SYSTEM
from tests.battles.battle_fixtures import SEED

pytestmark = pytest.mark.django_db

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)
STYLE = re.compile(r"<[^>]+\sstyle\s*=", re.I)


def test_pages_have_no_inline_script_handler_or_style(duel):
    turn_play_start(user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=3)
    turn_orders_submit(user=SYSTEM, battle=duel.battle, side=duel.qatzrin_side, orders={})
    pages = []
    for user in (duel.cast.organiser, duel.cast.qatzrin_player, duel.phalon_player):
        client = Client()
        client.force_login(user)
        for url in (
            f"/battles/{duel.battle.pk}/turns/",
            f"/battles/{duel.battle.pk}/replay/",
            duel.cast.campaign.get_absolute_url(),
        ):
            response = client.get(url)
            assert response.status_code == 200, url
            pages.append((url, response.content.decode()))
    organiser = Client()
    organiser.force_login(duel.cast.organiser)
    pages.append(("battle", organiser.get(f"/battles/{duel.battle.pk}/").content.decode()))
    for url, html in pages:
        assert not INLINE_SCRIPT.search(html), url
        assert not HANDLER.search(html), url
        assert not STYLE.search(html), url
    assert any('id="board-data" type="application/json"' in html for _, html in pages)
