"""The engine's refusals of orders in the reader's language (battles.log.refusals): the
engine writes English with a code and parameters, the API, the orders service and the
movement preview translate them; an English template that no longer matches the engine's
text falls back to the engine's English."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.utils import translation

import battles.rules
from battles.log.refusals import MESSAGES, WORDS, rules_error_text
from battles.models.turn_orders import TurnPlay
from battles.play.game_turns import turn_play_start
from battles.rules.errors import IllegalOrder, RulesError
from battles.rules.movement import Orders, validate_orders
from campaign.core.actors import SYSTEM
from tests.battles.battle_fixtures import SEED


def _refusal(call) -> RulesError:
    with pytest.raises(RulesError) as caught:
        call()
    return caught.value


def test_a_movement_refusal_in_french_and_in_english():
    error = _refusal(lambda: Orders.parse("+3, 1X", ship="Hood"))
    assert str(error) == "Hood: order '+3, 1X': unreadable part '1X' (rules §3)"
    assert error.code == "move.unreadable"
    with translation.override("fr"):
        assert rules_error_text(error) == (
            "Hood\u202f: ordre '+3, 1X'\u202f: partie illisible '1X' (règles §3)"
        )
    with translation.override("en"):
        assert rules_error_text(error) == str(error)


def test_a_refusal_without_a_ship_has_no_prefix():
    error = _refusal(lambda: Orders.parse("1T, +2"))
    assert str(error) == "order '1T, +2': speed change '+2' must come first (rules §3)"
    with translation.override("fr"):
        assert rules_error_text(error) == (
            "ordre '1T, +2'\u202f: le changement de vitesse '+2' doit venir en premier (règles §3)"
        )


def test_a_thrust_refusal_keeps_its_numbers():
    def order():
        validate_orders(Orders.parse("+3, 2T"), ship="Hood", thrust=4, speed=6)

    error = _refusal(order)
    assert str(error) == "Hood: order '+3, 2T': 2 arcs + |+3| speed exceed thrust 4 (rules §3)"
    with translation.override("fr"):
        assert rules_error_text(error) == (
            "Hood\u202f: ordre '+3, 2T'\u202f: 2 arcs + |+3| de vitesse dépassent la Propulsion 4 "
            "(règles §3)"
        )


def test_words_in_the_parameters_are_translated_too():
    error = IllegalOrder(
        "Hood: beam-a is damaged and cannot fire (rules §11)",
        code="fire.not-working",
        ship="Hood",
        system="beam-a",
        status="damaged",
    )
    with translation.override("fr"):
        assert rules_error_text(error) == (
            "Hood\u202f: beam-a est endommagé et ne peut pas tirer (règles §11)"
        )


def test_a_template_that_no_longer_matches_the_engine_shows_the_engines_english():
    drifted = IllegalOrder(
        "Hood: order '1X': cannot read part '1X' (rules §3)",
        code="move.unreadable",
        ship="Hood",
        order="'1X'",
        token="'1X'",
    )
    with translation.override("fr"):
        assert rules_error_text(drifted) == str(drifted)
    # No code, or a code the table does not know: the message as written.
    with translation.override("fr"):
        assert rules_error_text(RulesError("plain")) == "plain"
        assert rules_error_text(IllegalOrder("x", code="no.such")) == "x"


def test_every_message_and_word_has_its_french_text():
    with translation.override("fr"):
        for english in [*MESSAGES.values(), *WORDS.values()]:
            assert translation.gettext(english) != english, english


# --- through the API, the orders service and the movement preview ---------------------


@pytest.fixture
def game(duel):
    turn_play_start(user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=5)
    participant = duel.qatzrin_side.participants.filter(ship__isnull=False).first()
    duel.q = f"ship-{participant.ship_id}"
    play = TurnPlay.objects.get(battle=duel.battle)
    duel.q_name = play.setup["data"]["ships"][duel.q]["name"]
    duel.client = Client()
    duel.client.force_login(duel.cast.qatzrin_player)
    return duel


def _put_orders(game, orders: dict, language: str):
    return game.client.put(
        f"/api/battles/{game.battle.pk}/turns/orders",
        {"orders": orders},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=language,
    )


def test_the_api_refuses_bad_movement_in_the_readers_language(game):
    orders = {game.q: {"movement": "+1, 0T"}}
    french = _put_orders(game, orders, "fr")
    assert french.status_code == 400
    assert french.json()["detail"] == (
        f"{game.q_name}\u202f: ordre '+1, 0T'\u202f: la manœuvre '0T' ne tourne d’aucun arc "
        "(règles §3)\u202f; rien n’a été enregistré"
    )
    english = _put_orders(game, orders, "en")
    assert english.json()["detail"] == (
        f"{game.q_name}: order '+1, 0T': manoeuvre '0T' turns no arc (rules §3); nothing stored"
    )
    assert TurnPlay.objects.get(battle=game.battle).turns_played == 0


def test_the_api_refuses_fire_from_a_missing_system_in_french(game):
    orders = {game.q: {"fire": [{"system": "nope", "target": game.q}]}}
    response = _put_orders(game, orders, "fr")
    assert response.status_code == 400
    assert response.json()["detail"] == (
        f"{game.q_name}\u202f: aucun système d’arme 'nope' pour tirer (règles §2 phase 1)\u202f; "
        "rien n’a été enregistré"
    )


def test_the_movement_preview_says_why_in_french(game):
    response = game.client.post(
        f"/battles/{game.battle.pk}/turns/preview/",
        {"ship": game.q, f"movement-{game.q}": "+1, 1B, 2T, 3T"},
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert response.status_code == 200
    text = html.unescape(response.content.decode())
    assert (
        f"{game.q_name}\u202f: ordre '+1, 1B, 2T, 3T'\u202f: au plus deux manœuvres "
        "(une avant chaque demi-mouvement) (règles §3)"
    ) in text


def test_every_code_the_engine_raises_is_in_the_table_and_back():
    """Read from the engine's source: a code added there without its message here (or a
    message left for a code the engine no longer raises) fails."""
    import re
    from pathlib import Path

    root = Path(battles.rules.__file__).parent
    raised = {
        code
        for path in root.rglob("*.py")
        for code in re.findall(r'\bcode="([a-z-]+\.[a-z-]+)"', path.read_text(encoding="utf-8"))
    }
    # movement.py's bad() takes its code as a positional argument
    movement = (root / "movement.py").read_text(encoding="utf-8")
    raised |= set(re.findall(r'"(move\.[a-z-]+)"', movement))
    assert raised == set(MESSAGES)
