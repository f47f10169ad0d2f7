"""Battle texts the server stores in English read in the reader's language where they are
shown: the timeline (organiser panel), the stored outcome of a battle played turn by turn,
the engine's dice purposes in the full log; names stay as written and stay escaped."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from battles.log.lines import event_line
from battles.log.names import LogNames
from battles.models import Battle, BattleAction, Event
from battles.reports.context import report_context
from battles.services import battle_reseed, battle_resolve
from campaign.core.actors import SYSTEM
from campaign.core.messages import english, message
from tests.battles.battle_fixtures import draft_skirmish

SEED = 20261130
TURNS_OUTCOME = (
    "Qatzrin victory: more surviving strength (mass × hull left), the battle ended by the "
    "organiser after turn 2. Played turn by turn from both sides' orders (seed 7)."
)


@pytest.fixture
def resolved(db):
    battle = draft_skirmish()
    battle_reseed(user=SYSTEM, battle=battle, reason="")
    return battle_resolve(user=SYSTEM, battle=battle, seed=SEED)


def fragment(battle: Battle, language: str) -> str:
    with translation.override(language):
        return render_to_string("reports/battle.html", report_context(battle))


def test_the_timeline_reads_in_the_readers_language(resolved, django_user_model):
    stored = list(BattleAction.objects.filter(battle=resolved).values_list("summary", flat=True))
    assert "first dice seed drawn" in stored  # the rows stay English
    admin = django_user_model.objects.create_superuser("boss", "boss@example.org", "pw-12345!")
    pages = {}
    for language in ("fr", "en"):
        c = Client(HTTP_ACCEPT_LANGUAGE=language)
        c.force_login(admin)
        response = c.get(f"/battles/{resolved.pk}/")
        assert response.status_code == 200
        pages[language] = html_lib.unescape(response.content.decode())
    assert "— première graine des dés tirée</li>" in pages["fr"]
    assert "— first dice seed drawn</li>" in pages["en"]
    winner = resolved.winner.name
    assert re.search(
        rf"— Victoire de {winner}\u202f: [^<]*, après \d+ tours?\. Résolue par le moteur de "
        rf"règles \(graine {SEED}\)\.</li>",
        pages["fr"],
    )
    assert " victory: " not in pages["fr"]


def test_dice_purposes_read_in_french_in_the_full_log(resolved):
    french = html_lib.unescape(fragment(resolved, "fr"))
    assert re.search(r">initiative de (Qatzrin|Phalon), jet 1, dé 1\u202f: d6=[1-6]</li>", french)
    assert re.search(r"\btest de seuil, rangée \d, ", french)
    assert "initiative qatzrin, roll" not in french and ", die 1" not in french
    english = html_lib.unescape(fragment(resolved, "en"))
    assert re.search(r">initiative of (Qatzrin|Phalon), roll 1, die 1: d6=[1-6]</li>", english)


def test_a_battle_played_turn_by_turn_shows_its_stored_outcome_translated(resolved):
    # A row written before outcomes were stored as messages: English only.
    Battle.objects.filter(pk=resolved.pk).update(
        mode=Battle.Mode.TURNS, outcome=TURNS_OUTCOME, outcome_message={}
    )
    resolved.refresh_from_db()
    french = html_lib.unescape(fragment(resolved, "fr"))
    assert (
        "<span>Victoire de Qatzrin\u202f: plus de force restante (masse × coque restante), "
        "bataille "
        "arrêtée par l’organisateur après le tour 2. Livrée tour par tour sur les ordres des "
        "deux camps (graine 7).</span>"
    ) in french
    # Its log is the engine's: French lines too.
    assert re.search(r"(Qatzrin|Phalon) a l’initiative", french)
    english = html_lib.unescape(fragment(resolved, "en"))
    assert f"<span>{TURNS_OUTCOME}</span>" in english


def test_a_chroniclers_outcome_stays_as_written(resolved):
    text = "Phalon victory: the G+ destroyers jump out."
    Battle.objects.filter(pk=resolved.pk).update(
        mode=Battle.Mode.RECORDED, outcome=text, outcome_message={}
    )
    resolved.refresh_from_db()
    assert f"<span>{text}</span>" in html_lib.unescape(fragment(resolved, "fr"))


def test_translated_lines_keep_names_escaped(resolved):
    payload = '<img src=x onerror="alert(1)">'
    Battle.objects.filter(pk=resolved.pk).update(
        mode=Battle.Mode.TURNS,
        outcome=TURNS_OUTCOME.replace("Qatzrin victory", f"{payload} victory"),
        outcome_message={},
    )
    setup = Event.objects.get(battle=resolved, kind="setup")
    ship_id = next(iter(setup.data["ships"]))
    setup.data["ships"][ship_id]["name"] = payload
    setup.save(update_fields=["data"])
    resolved.refresh_from_db()
    page = fragment(resolved, "fr")
    assert "<img" not in page
    assert "Victoire de &lt;img src=x onerror=&quot;alert(1)&quot;&gt;\u202f: " in page


def test_roll_purposes_name_ships_and_keep_unknown_words():
    names = LogNames(ships={"ship-3": "Huulth 1"}, sides={"phalon": "Phalon"})

    def line(purpose: str) -> str:
        event = Event(
            kind="roll",
            summary=f"{purpose}: d6=4",
            data={"purpose": purpose, "sides": 6, "result": 4},
        )
        return event_line(event, names)

    with translation.override("fr"):
        assert line("ship-3 threshold row 2 core (5+)") == (
            "Huulth 1 test de seuil, rangée 2, core (5+)\u202f: d6=4"
        )
        assert line("beam-2 vs Huulth 1, shot 2 to-hit 4+") == (
            "beam-2 contre Huulth 1, tir 2, touche sur 4+\u202f: d6=4"
        )
        assert line("pulser-short vs Ra'am 1, die 3, re-roll 1") == (
            "pulser-short contre Ra'am 1, dé 3, relance 1\u202f: d6=4"
        )
        assert line("ship-3 damage control bridge (2 crew, 4+)") == (
            "Huulth 1 contrôle des avaries sur bridge (2 équipes, 4+)\u202f: d6=4"
        )
        # A purpose of unknown shape: its words kept, its ship ids named.
        assert line("ship-3 something new") == "Huulth 1 something new\u202f: d6=4"
    with translation.override("en"):
        assert line("ship-3 threshold row 2 core (5+)") == (
            "Huulth 1 threshold check, row 2, core (5+): d6=4"
        )


def test_light_unit_and_rarer_lines_read_in_french():
    names = LogNames(ships={"ship-1": "Kineret 1", "ship-4": "Dinth 1"}, sides={})

    def line(kind: str, summary: str, **data) -> str:
        return event_line(Event(kind=kind, summary=summary, data=data, game_turn=2), names)

    unit = "ship-1.bay-a-1"
    with translation.override("fr"):
        assert line("intent", f"{unit} marks Dinth 1", unit=unit, target="ship-4") == (
            "Kineret 1 bay-a-1 prend Dinth 1 pour cible"
        )
        assert line(
            "light-unit-move",
            f"{unit} (fighter-long-range ×6) flies 24.0 mu towards Dinth 1, attaches",
            unit=unit,
        ) == ("Kineret 1 bay-a-1 vole 24 mu vers Dinth 1 et s’y arrime")
        landed = line(
            "land",
            f"{unit} (fighter-long-range ×6) lands on Kineret 1 (bay-a), rearms until turn 4",
            unit=unit, ship="ship-1", system="bay-a", craft=6, ready_turn=4,
        )  # fmt: skip
        assert (
            landed == "Kineret 1 bay-a-1 apponte sur Kineret 1 (bay-a), réarmement jusqu’au tour 4"
        )
        assert line(
            "point-defence",
            f"Dinth 1 pd-a at {unit}: 2 killed",
            ship="ship-4", system="pd-a", unit=unit, kills=2,
        ) == "Dinth 1 pd-a tire sur Kineret 1 bay-a-1\u202f: 2 abattus"  # fmt: skip
        assert line(
            "damage-boarding", "Dinth 1 boarding: marines repelled by crew",
            ship="ship-4", detail="marines repelled by crew",
        ) == "Dinth 1\u202f: marines repoussés par crew"  # fmt: skip
        # A shape not known: the stored summary.
        odd = "ship-1.bay-a-1 loops around"
        assert line("light-unit-move", odd, unit=unit) == odd
    with translation.override("en"):
        assert line("intent", f"{unit} marks Dinth 1", unit=unit, target="ship-4") == (
            "Kineret 1 bay-a-1 marks Dinth 1"
        )


def test_a_refused_shot_reads_in_french_from_its_error_class():
    names = LogNames(ships={"ship-1": "Kineret 1", "ship-4": "Dinth 1"}, sides={})
    data = {"ship": "ship-1", "system": "beam-a", "target": "ship-4", "error": "OutOfArc"}
    event = Event(kind="fire-refused", summary="Kineret 1 beam-a at ship-4: …", data=data)
    with translation.override("fr"):
        assert event_line(event, names) == (
            "Kineret 1 ne peut pas tirer beam-a sur Dinth 1\u202f: hors de l’arc de tir"
        )
        event.data = {**data, "error": "SomethingNew"}
        assert event_line(event, names) == event.summary


def test_a_stored_message_keeps_names_escaped(resolved):
    payload = '<img src=x onerror="alert(1)">'
    head = message("outcome.victory", side=payload, reason="judged")
    stored = message("outcome.ended", head=head, n=2, seed=7)
    # No winner on the battle: the banner would otherwise say "Victory: <side>" and the
    # outcome keep only the reason.
    Battle.objects.filter(pk=resolved.pk).update(
        mode=Battle.Mode.TURNS, outcome=english(stored), outcome_message=stored, winner=None
    )
    resolved.refresh_from_db()
    page = fragment(resolved, "fr")
    assert "<img" not in page
    assert "Victoire de &lt;img src=x onerror=&quot;alert(1)&quot;&gt;\u202f: " in page
