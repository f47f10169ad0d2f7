"""Ledger reasons, history reasons and API texts the turn services store (a message key and
its parameters, campaign.core.messages) are shown in the reader's language on the pages
(campaign.core.stored_text); ledger rows keep their English beside the key, and older rows
without a key still read through the patterns."""

from __future__ import annotations

import html as html_lib

import pytest
from django.test import Client

from campaign.core.messages import decode
from campaign.turns.closing import campaign_turn_close, campaign_turn_open
from campaign.turns.models import LedgerEntry
from campaign.turns.repairs import repair_order
from campaign.turns.treasury import treasury_adjust
from tests.campaign.turns.conftest import norway_battle

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed(sample):
    """Turn 1 closed with a repair at Trøndelag: an income entry, a repair debit and the
    ship's "repaired at" history row, all stored in English."""
    s = sample
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    treasury_adjust(
        campaign=s.campaign, faction=s.norge, resources=500, reason="chest", user=s.organiser
    )
    s.tord = s.fleet.ships.filter(ship_class__name="Tordenskjold").order_by("pk").first()
    norway_battle(s.campaign, s.fleet, {s.tord: {"fate": "damaged", "hull_lost": 1}})
    s.tord.refresh_from_db()
    s.order = repair_order(campaign=s.campaign, ship=s.tord, user=s.norge_player, hull=1)
    s.turn = campaign_turn_close(campaign=s.campaign, user=s.organiser)
    return s


def page(s, url: str, language: str) -> str:
    c = Client(HTTP_ACCEPT_LANGUAGE=language)
    c.force_login(s.organiser)
    response = c.get(url)
    assert response.status_code == 200
    return html_lib.unescape(response.content.decode())


def test_ledger_reasons_read_in_the_readers_language(closed):
    s = closed
    n = s.turn.number
    yard = s.order.yard.name
    stored = set(LedgerEntry.objects.filter(faction=s.norge).values_list("reason", flat=True))
    assert {f"income of turn {n}", f"repair of {s.tord} at {yard}"} <= stored  # kept English
    french = page(s, "/campaigns/sample/turn/", "fr")
    assert f"<td>revenus du tour {n}</td>" in french
    assert f"<td>réparation de {s.tord} à {yard}</td>" in french
    assert "income of turn" not in french and "repair of " not in french
    english = page(s, "/campaigns/sample/turn/", "en")
    assert f"<td>income of turn {n}</td>" in english
    assert f"<td>repair of {s.tord} at {yard}</td>" in english


def test_a_ships_history_reason_reads_in_the_readers_language(closed):
    s = closed
    n, yard = s.turn.number, s.order.yard.name
    reasons = s.tord.history.values_list("history_change_reason", flat=True)
    assert {"key": "turn.repaired", "params": {"n": n, "yard": yard}} in map(decode, reasons)
    french = page(s, f"/ships/{s.tord.pk}/", "fr")
    assert f'<span class="meta">tour {n}\u202f: réparé à {yard}</span>' in french
    assert "repaired at" not in french
    english = page(s, f"/ships/{s.tord.pk}/", "en")
    assert f'<span class="meta">turn {n}: repaired at {yard}</span>' in english


def test_the_ledger_api_adds_a_translated_reason_and_keeps_the_stored_one(closed):
    s = closed
    n = s.turn.number
    c = Client(HTTP_ACCEPT_LANGUAGE="fr")
    c.force_login(s.organiser)
    response = c.get("/api/campaigns/sample/treasuries")
    assert response.status_code == 200, response.content
    ledger = response.json()["ledger"]
    rows = [r for r in ledger if r["reason"] == f"income of turn {n}"]
    assert rows and {r["reason_display"] for r in rows} == {f"revenus du tour {n}"}
    # A person's own reason is shown as written.
    assert [r["reason_display"] for r in ledger if r["reason"] == "chest"] == ["chest"]


@pytest.fixture
def forge(sample):
    """As ``closed``, the yard renamed "Forge at Dawn": its name holds the sentence's own
    " at "."""
    s = sample
    s.fleet.territory.name = "Forge at Dawn"
    s.fleet.territory.save()
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    treasury_adjust(
        campaign=s.campaign, faction=s.norge, resources=500, reason="chest", user=s.organiser
    )
    s.tord = s.fleet.ships.filter(ship_class__name="Tordenskjold").order_by("pk").first()
    norway_battle(s.campaign, s.fleet, {s.tord: {"fate": "damaged", "hull_lost": 1}})
    s.tord.refresh_from_db()
    s.order = repair_order(campaign=s.campaign, ship=s.tord, user=s.norge_player, hull=1)
    assert s.order.yard.name == "Forge at Dawn"
    s.turn = campaign_turn_close(campaign=s.campaign, user=s.organiser)
    return s


def test_a_yard_named_forge_at_dawn_reads_whole_in_both_languages(forge):
    s = forge
    entry = LedgerEntry.objects.get(repair_order=s.order)
    assert entry.reason == f"repair of {s.tord} at Forge at Dawn"  # English kept for search
    assert entry.reason_message == {
        "key": "ledger.repair",
        "params": {"ship": str(s.tord), "yard": "Forge at Dawn"},
    }
    french = page(s, "/campaigns/sample/turn/", "fr")
    assert f"<td>réparation de {s.tord} à Forge at Dawn</td>" in french
    english = page(s, "/campaigns/sample/turn/", "en")
    assert f"<td>repair of {s.tord} at Forge at Dawn</td>" in english
    ship_fr = page(s, f"/ships/{s.tord.pk}/", "fr")
    assert (
        f'<span class="meta">tour {s.turn.number}\u202f: réparé à Forge at Dawn</span>' in ship_fr
    )


def test_a_reworded_english_reason_keeps_its_french(closed):
    s = closed
    entry = LedgerEntry.objects.get(repair_order=s.order)
    # What a service with another English wording would have stored beside the same key.
    LedgerEntry.objects.filter(pk=entry.pk).update(reason=f"{s.tord} mended at the yard")
    french = page(s, "/campaigns/sample/turn/", "fr")
    assert f"<td>réparation de {s.tord} à {s.order.yard.name}</td>" in french
    c = Client(HTTP_ACCEPT_LANGUAGE="fr")
    c.force_login(s.organiser)
    ledger = c.get("/api/campaigns/sample/treasuries").json()["ledger"]
    row = next(r for r in ledger if r["reason"] == f"{s.tord} mended at the yard")
    assert row["reason_display"] == f"réparation de {s.tord} à {s.order.yard.name}"


def test_an_old_row_without_a_message_still_reads_through_the_patterns(closed):
    s = closed
    LedgerEntry.objects.create(
        campaign=s.campaign,
        faction=s.norge,
        turn=1,
        kind=LedgerEntry.Kind.INCOME,
        resources=7,
        reason="income of turn 9",
    )
    s.tord.history.filter(pk=s.tord.history.latest().pk).update(
        history_change_reason="turn 9: repaired at Petra IV"
    )
    french = page(s, "/campaigns/sample/turn/", "fr")
    assert "<td>revenus du tour 9</td>" in french
    ship_fr = page(s, f"/ships/{s.tord.pk}/", "fr")
    assert '<span class="meta">tour 9\u202f: réparé à Petra IV</span>' in ship_fr
