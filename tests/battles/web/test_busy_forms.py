"""Slow actions' forms are marked ``data-busy`` (static/js/admiralty.js then shows
"Working…" and disables their buttons once sent): conclude, draw or re-run the dice,
publish a report, open and close a campaign turn, start, play and end a battle turn by
turn. The browser side is tested in tests/e2e/test_ux_e2e.py."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from battles.play.game_turns import turn_play_start
from battles.services import battle_resolve
from campaign.core.actors import SYSTEM
from campaign.turns.closing import campaign_turn_open
from tests.battles.battle_fixtures import draft_skirmish

pytestmark = pytest.mark.django_db
BUSY = 'data-busy="Working…"'


def _busy_actions(html: str) -> set[str]:
    """The action (URL's last part, or the hidden ``action`` value) of each busy form."""
    found = set()
    for form in re.findall(r"<form [^>]*>.*?</form>", html, re.S):
        if BUSY not in form.split(">", 1)[0]:
            continue
        hidden = re.search(r'name="action" value="(\w+)"', form)
        url = re.search(r'action="[^"]*/([\w-]+)/"', form)
        found.add(hidden.group(1) if hidden else url.group(1))
    return found


@pytest.fixture
def organiser(cast):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(cast.organiser)
    return client


def test_the_auto_resolve_preview_and_turn_by_turn_buttons(cast, organiser):
    battle = draft_skirmish(cast.campaign)
    page = organiser.get(f"/battles/{battle.pk}/resolve/").content.decode()
    assert _busy_actions(page) == {"seed"}
    battle.seed = 5
    battle.save()
    page = organiser.get(f"/battles/{battle.pk}/resolve/").content.decode()
    assert _busy_actions(page) == {"conclude", "reseed"}
    page = organiser.get(f"/battles/{battle.pk}/turns/").content.decode()
    assert _busy_actions(page) == {"start"}
    turn_play_start(user=SYSTEM, battle=battle, seed=5, max_turns=3)
    page = organiser.get(f"/battles/{battle.pk}/turns/").content.decode()
    assert _busy_actions(page) == {"play", "end"}


def test_the_report_and_campaign_turn_buttons(cast, organiser):
    battle = draft_skirmish(cast.campaign)
    battle_resolve(user=SYSTEM, battle=battle, seed=1, max_turns=5)
    page = organiser.get(f"/battles/{battle.pk}/report/").content.decode()
    assert _busy_actions(page) == {"publish"}
    page = organiser.get("/campaigns/test-league/turn/").content.decode()
    assert _busy_actions(page) == {"open"}
    campaign_turn_open(campaign=cast.campaign, user=cast.organiser)
    page = organiser.get("/campaigns/test-league/turn/").content.decode()
    assert _busy_actions(page) == {"close"}
