"""The report's outcome banner names the winner once: "Victory: Phalon" then why, not
"Victory: Phalon Phalon victory: …" for a battle played turn by turn."""

from __future__ import annotations

import pytest
from django.utils import translation

from battles.models import Battle
from battles.reports.context import report_context
from campaign.core.messages import message
from tests.battles.reports.report_fixtures import make_battle

pytestmark = pytest.mark.django_db

ENDED = message(
    "outcome.engine",
    head=message("outcome.victory", side="Phalon", reason="withdrawal"),
    n=3,
    seed=7,
    play=True,
)


def test_the_banner_names_the_winner_once(cast):
    battle = make_battle(
        cast.campaign, mode=Battle.Mode.TURNS, outcome="Phalon victory", outcome_message=ENDED
    )
    with translation.override("en"):
        context = report_context(battle)
    assert context["winner_name"] == "Phalon"
    assert context["outcome_text"] == (
        "The other side's last ships withdrew, after 3 turns. "
        "Played turn by turn from both sides' orders (seed 7)."
    )
    with translation.override("fr"):
        text = report_context(battle)["outcome_text"]
    assert "Phalon" not in text and text.startswith("Les derniers")


def test_without_a_winner_the_outcome_keeps_its_head(cast):
    draw = message("outcome.engine", head=message("outcome.draw"), n=3, seed=7, play=True)
    battle = make_battle(
        cast.campaign, mode=Battle.Mode.TURNS, winner=None, outcome="Draw", outcome_message=draw
    )
    with translation.override("en"):
        assert report_context(battle)["outcome_text"].startswith(
            "Draw: equal surviving strength, after 3 turns."
        )
