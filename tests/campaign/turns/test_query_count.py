"""Closing and reopening a turn run a fixed number of queries whatever the number of ships
repaired (joined updates, ``campaign.core.bulk_rows``; on SQLite, within one statement's
limit of parameters), and every row they change gets its history row."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.turn_close import generate_campaign
from campaign.core.actors import SYSTEM
from campaign.turns.closing import campaign_turn_close, campaign_turn_reopen
from campaign.turns.models import RepairOrder
from factions.models import Ship, Territory

pytestmark = pytest.mark.django_db


def _ships(campaign) -> list[int]:
    return list(
        Ship.objects.filter(fleet__faction__campaigns=campaign)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _queries(orders: int) -> tuple[int, int]:
    campaign = generate_campaign(factions=4, ships=60, orders=orders)
    with CaptureQueriesContext(connection) as closing:
        campaign_turn_close(campaign=campaign, user=SYSTEM)
    repaired = Ship.objects.filter(fleet__faction__campaigns=campaign, status="active").count()
    assert repaired == 60  # every damaged ship was fully repaired (yards of 10 000 a turn)
    with CaptureQueriesContext(connection) as reopening:
        campaign_turn_reopen(campaign=campaign, user=SYSTEM, turn=1)
    assert Ship.objects.filter(fleet__faction__campaigns=campaign, status="damaged").count() == (
        orders
    )
    return len(closing), len(reopening)


def test_closing_and_reopening_a_turn_do_not_query_per_ship():
    assert _queries(4) == _queries(40)


def test_every_ship_repaired_and_restored_gets_its_history_row():
    campaign = generate_campaign(factions=3, ships=30, orders=12)
    damaged = _ships(campaign)[:12]
    campaign_turn_close(campaign=campaign, user=SYSTEM)
    campaign_turn_reopen(campaign=campaign, user=SYSTEM, turn=1)
    rows = list(
        Ship.history.filter(id__in=_ships(campaign), history_type="~")
        .order_by("history_id")
        .values_list("id", "status", "hull_lost", "systems_lost", "history_change_reason")
    )
    closed = [r for r in rows if json.loads(r[4])["key"] == "turn.repaired"]
    reopened = [r for r in rows if json.loads(r[4])["key"] == "turn.reopened"]
    assert len(rows) == 24  # nothing else
    assert sorted(r[0] for r in closed) == damaged
    assert {(r[1], r[2], str(r[3])) for r in closed} == {("active", 0, "[]")}
    assert sorted(r[0] for r in reopened) == damaged
    assert {(r[1], r[2], str(r[3])) for r in reopened} == {("damaged", 8, "['beam-a']")}
    assert {json.loads(r[4])["params"]["n"] for r in rows} == {1}
    assert (
        sorted(RepairOrder.objects.filter(campaign=campaign).values_list("ship_id", flat=True))
        == damaged
    )


def _close_with_orders_left(factions: int) -> int:
    campaign = generate_campaign(factions=factions, ships=4 * factions, orders=4 * factions)
    # Yards of one box a turn: every order stays queued and its ETA moves.
    Territory.objects.filter(faction__campaigns=campaign).update(shipyard_capacity=1)
    with CaptureQueriesContext(connection) as closing:
        campaign_turn_close(campaign=campaign, user=SYSTEM)
    moved = RepairOrder.objects.filter(campaign=campaign, status="queued").exclude(eta_turn=1)
    assert moved.count() == 4 * factions
    return len(closing)


def test_closing_with_orders_left_does_not_query_per_yard():
    assert _close_with_orders_left(2) == _close_with_orders_left(6)
