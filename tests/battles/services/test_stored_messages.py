"""The battle services store their outcomes and timeline lines as message keys and
parameters beside the English (campaign.core.messages), shown in the reader's language."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from battles.models import BattleAction
from battles.services import battle_record, battle_reopen, battle_reseed, battle_resolve
from campaign.core.actors import SYSTEM
from campaign.core.messages import english
from campaign.core.stored_text import stored_text
from tests.battles.battle_fixtures import draft_skirmish
from tests.battles.reports.test_report_freshness import change_form_data

pytestmark = pytest.mark.django_db
SEED = 20261130


def test_an_engine_outcome_is_stored_as_a_message_and_reopening_clears_it():
    battle = draft_skirmish()
    battle_reseed(user=SYSTEM, battle=battle, reason="")
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    battle.refresh_from_db()
    stored = battle.outcome_message
    assert stored["key"] == "outcome.engine"
    assert (stored["params"]["seed"], stored["params"]["n"]) == (SEED, battle.game_turns)
    assert stored["params"]["play"] is False
    assert battle.outcome == english(stored)  # the English column, for search and old readers
    assert battle.outcome.endswith(f"Resolved by the rules engine (seed {SEED}).")
    with translation.override("fr"):
        french = stored_text(battle.outcome, stored)
    assert french.endswith(f"Résolue par le moteur de règles (graine {SEED}).")
    response = Client(HTTP_ACCEPT_LANGUAGE="fr").get(f"/api/battles/{battle.pk}")
    assert response.status_code == 200, response.content
    assert response.json()["outcome_display"] == french

    battle_reopen(user=SYSTEM, battle=battle)
    battle.refresh_from_db()
    assert (battle.outcome, battle.outcome_message) == ("", {})
    lines = {a.kind: a for a in BattleAction.objects.filter(battle=battle)}
    assert lines["reseed"].summary_message == {"key": "battle.first_seed", "params": {}}
    assert lines["conclude"].summary_message == stored
    assert lines["reopen"].summary_message == {"key": "battle.reopened", "params": {}}
    assert lines["reopen"].summary == "reopened: every ship and light unit as before the battle"


def test_an_organiser_s_own_outcome_and_reason_stay_their_words():
    battle = draft_skirmish()
    battle_record(
        user=SYSTEM, battle=battle, results=[], outcome="Phalon hold the gate.", winner="phalon"
    )
    battle.refresh_from_db()
    assert (battle.outcome, battle.outcome_message) == ("Phalon hold the gate.", {})
    with translation.override("fr"):
        assert stored_text(battle.outcome, battle.outcome_message) == "Phalon hold the gate."
    action = BattleAction.objects.get(battle=battle, kind="conclude")
    assert (action.summary, action.summary_message) == (
        "recorded from the table",
        {"key": "battle.recorded", "params": {}},
    )
    battle_reopen(user=SYSTEM, battle=battle, reason="wrong table")
    action = BattleAction.objects.get(battle=battle, kind="reopen")
    assert (action.summary, action.summary_message) == ("wrong table", {})


def test_an_outcome_edited_in_the_admin_drops_the_engine_s_message(client, django_user_model):
    battle = draft_skirmish()
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    battle.refresh_from_db()
    assert battle.outcome_message["key"] == "outcome.engine"
    client.force_login(django_user_model.objects.create_superuser("admin", "a@example.com", "pw"))
    url = reverse("admin:battles_battle_change", args=[battle.pk])
    data = change_form_data(client.get(url))
    data["narrative"] = "A quiet chronicle."
    assert client.post(url, data).status_code == 302
    battle.refresh_from_db()
    assert battle.outcome_message["key"] == "outcome.engine"  # outcome untouched: kept
    data["outcome"] = "Phalon hold the gate."
    assert client.post(url, data).status_code == 302
    battle.refresh_from_db()
    assert (battle.outcome, battle.outcome_message) == ("Phalon hold the gate.", {})
    with translation.override("fr"):
        assert stored_text(battle.outcome, battle.outcome_message) == "Phalon hold the gate."
