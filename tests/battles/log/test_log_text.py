"""The battle log in the reader's language (battles.log.lines): lines rebuilt from each
engine event's data with gettext, ships and sides by name, the stored English summary for
anything unknown, and the report's privacy rules kept on what is printed."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from battles.log.lines import event_line
from battles.log.names import LogNames
from battles.models import Battle, Event, Participant
from battles.reports.context import report_context
from battles.reports.draft import report_draft_markdown
from battles.services import battle_resolve
from campaign.core.actors import SYSTEM
from factions.models import Fleet
from tests.battles.battle_fixtures import draft_skirmish

SEED = 20261130


def fragment(battle: Battle, language: str, user=None) -> str:
    with translation.override(language):
        text = render_to_string("reports/battle.html", report_context(battle, user=user))
    return html_lib.unescape(text)


@pytest.fixture
def resolved(db):
    battle = draft_skirmish()
    return battle_resolve(user=SYSTEM, battle=battle, seed=SEED)


def _names(battle: Battle) -> dict[str, str]:
    setup = Event.objects.get(battle=battle, kind="setup")
    return {sid: row["name"] for sid, row in setup.data["ships"].items()}


def test_a_resolved_battle_reads_in_french(resolved):
    page = fragment(resolved, "fr")
    winner = resolved.winner.name
    assert re.search(r"(Qatzrin|Phalon) a l’initiative", page)
    assert "has the initiative" not in page
    assert " tire " in page and " sur " in page and " mu\u202f: " in page
    assert "détruit\u202f: dernière case de coque perdue (§11)" in page
    assert "last hull box gone" not in page
    assert f"victoire de {winner} (" in page and " wins (" not in page
    assert "flottes déployées" in page and "fleets deployed" not in page
    # Ships by name, never by engine id; sides by faction name, not slug.
    log = " ".join(re.findall(r'<li class="event [^"]*">([^<]*)</li>', page))
    assert log and not re.search(r"\bship-\d+\b", log)
    assert "qatzrin a l’initiative" not in page and "phalon a l’initiative" not in page


def test_french_lines_name_the_destroyed_ship(resolved):
    destroyed = Event.objects.filter(battle=resolved, kind="damage-destroyed").first()
    assert destroyed is not None
    name = _names(resolved)[destroyed.data["ship"]]
    assert f"{name} détruit\u202f: dernière case de coque perdue (§11)" in fragment(resolved, "fr")


def test_english_rendering_still_works(resolved):
    page = fragment(resolved, "en")
    assert re.search(r"(Qatzrin|Phalon) has the initiative", page)
    assert "destroyed: last hull box gone (§11)" in page
    assert f"{resolved.winner.name} wins (" in page


def _event(kind: str, summary: str, data, game_turn: int = 1) -> Event:
    return Event(kind=kind, summary=summary, data=data, game_turn=game_turn)


NAMES = LogNames(ships={"ship-1": "Silith 1", "ship-2": "Kashat-E 1"}, sides={"phalon": "Phalon"})


@pytest.mark.parametrize(
    "event",
    [
        _event("wormhole", "something new happened", {"ship": "ship-1"}),
        _event("initiative", "phalon has the initiative", None),
        _event("initiative", "phalon has the initiative", ["phalon"]),
        _event("fire", "Silith 1 beam at X: 2 damage", {"ship": "ship-1", "target": "ship-9"}),
        _event("fire", "odd fire", {"ship": "ship-1", "target": "ship-2", "range": "far"}),
        _event("damage-row", "old row text", {"ship": "ship-1", "detail": 7}),
        _event("result", "phalon wins (odd) after 3 turn(s)", {"winner": "phalon", "reason": 1}),
        _event("roll", "to-hit: d6=4", {"purpose": "to-hit", "sides": "six"}),
    ],
)
def test_unknown_kinds_and_odd_data_fall_back_to_the_summary(event):
    with translation.override("fr"):
        assert event_line(event, NAMES) == event.summary


def test_known_lines_in_french():
    with translation.override("fr"):
        fire = _event(
            "fire",
            "Silith 1 beam-a (beam-2) at Kashat-E 1, 4.0 mu: 2 damage",
            {"ship": "ship-1", "system": "beam-a", "weapon": "beam-2", "target": "ship-2",
             "range": 4.0},
        )  # fmt: skip
        assert event_line(fire, NAMES) == (
            "Silith 1 tire beam-a (beam-2) sur Kashat-E 1, à 4 mu\u202f: 2 dégâts"
        )
        fire.summary = fire.summary.replace("2 damage", "1 damage")
        assert event_line(fire, NAMES) == (
            "Silith 1 tire beam-a (beam-2) sur Kashat-E 1, à 4 mu\u202f: 1 dégât"
        )
        row = _event(
            "damage-row", "x", {"ship": "ship-2", "detail": "hull row 1 completed, -0 armour"}
        )
        assert event_line(row, NAMES) == "Kashat-E 1\u202f: rangée de coque 1 complète"
        roll = _event(
            "roll",
            "ship-2 core countdown: d6=6",
            {"purpose": "ship-2 core countdown", "sides": 6, "result": 6},
        )  # noqa: E501
        assert event_line(roll, NAMES) == "Kashat-E 1 compte à rebours de core\u202f: d6=6"
        lost = _event(
            "contact-lost", "phalon loses Kashat-E 1", {"side": "phalon", "ship": "ship-2"}
        )
        assert event_line(lost, NAMES) == "Phalon perd le contact senseurs avec Kashat-E 1"


def test_an_unknown_kind_falls_back_on_the_page(resolved):
    Event.objects.create(
        battle=resolved, sequence=100000, game_turn=1, kind="wormhole",
        summary="A wormhole opens near the belt", data={"odd": True},
    )  # fmt: skip
    assert "A wormhole opens near the belt" in fragment(resolved, "fr")


def test_a_hidden_ships_name_never_appears_in_french(resolved):
    phalon_side = resolved.sides.get(faction__slug="phalon")
    Fleet.objects.filter(pk=phalon_side.fleet_id).update(hidden=True)
    names = _names(resolved)
    hidden = {
        names[f"ship-{p.ship_id}"]
        for p in Participant.objects.filter(side=phalon_side, ship__isnull=False)
    }
    assert hidden
    page = fragment(resolved, "fr")
    for name in hidden:
        assert not re.search(rf"(?<!\w){re.escape(name)}(?!\w)", page), name
    assert "a l’initiative" in page  # the log is still there, in French


@pytest.mark.parametrize(
    ("language", "victory", "why", "turn_word"),
    [("fr", "Victoire\u202f: ", "après", "tour"), ("en", "Victory: ", "after", "turn")],
)
def test_the_report_header_names_the_winner_once(resolved, language, victory, why, turn_word):
    page = fragment(resolved, language)
    header = page.split('<p class="report-outcome">')[1].split("</p>")[0]
    winner = resolved.winner.name
    result = Event.objects.get(battle=resolved, kind="result")
    turns = result.game_turn
    assert header.count(winner) == 1, header
    assert f"{victory}{winner}</strong>" in header
    assert re.search(rf"<span>\(\w[^<]*, {why} {turns} {turn_word}s?\)</span>", header), header
    # The log still says it whole.
    assert (f"victoire de {winner} (" if language == "fr" else f"{winner} wins (") in page


def test_the_drafted_report_names_the_winner_once(resolved):
    with translation.override("fr"):
        text = report_draft_markdown(resolved)
    outcome = text.split("## Issue")[1].split("##")[0] if "## Issue" in text else text
    winner = resolved.winner.name
    assert re.search(rf"Victoire\u202f: {winner} \\?\(\w+, après \d+ tours?\\?\)\.", outcome), (
        outcome
    )
    assert f"victoire de {winner}" not in outcome
