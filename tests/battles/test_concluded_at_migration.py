"""The data migration that gives every concluded battle its ``concluded_at``."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from battles.models import Battle
from campaign.league.models import Campaign

BEFORE = ("battles", "0009_battle_mode_turns")
AFTER = ("battles", "0010_fill_concluded_at")
T1 = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
T2 = datetime(2026, 3, 2, 11, 0, tzinfo=UTC)
T3 = datetime(2026, 3, 3, 12, 0, tzinfo=UTC)


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([target])


def _history(battle, *dates):
    rows = battle.history.order_by("history_date", "history_id")
    for row, date in zip(rows, dates, strict=True):
        type(row).objects.filter(pk=row.pk).update(history_date=date)


@pytest.mark.django_db(transaction=True)
def test_concluded_battles_without_a_time_get_the_time_they_became_concluded():
    _migrate(BEFORE)
    try:
        campaign = Campaign.objects.create(name="League", slug="league")
        # Drafted at T1, concluded at T2, reopened at T3 and concluded again: the last T3.
        again = Battle.objects.create(campaign=campaign, name="Again", slug="again")
        for status in ("concluded", "draft", "concluded"):
            again.status = status
            again.save()
        _history(again, T1, T2, T2, T3)
        # Concluded from its first row (how other systems' battles were recorded).
        recorded = Battle.objects.create(
            campaign=campaign, name="Other", slug="other", status="concluded"
        )
        _history(recorded, T1)
        # No history row at all (bulk writes): its last update.
        (bulk,) = Battle.objects.bulk_create(
            [Battle(campaign=campaign, name="Bulk", slug="bulk", status="concluded")]
        )
        Battle.objects.filter(pk=bulk.pk).update(updated_at=T2)
        # Left alone: a battle with its time, and a draft.
        timed = Battle.objects.create(
            campaign=campaign, name="Timed", slug="timed", status="concluded", concluded_at=T1
        )
        Battle.objects.create(campaign=campaign, name="Draft", slug="draft")
        before = {b.slug: (b.status, b.concluded_at) for b in Battle.objects.all()}
        assert sum(at is None for status, at in before.values() if status == "concluded") == 3

        _migrate(AFTER)

        after = {b.slug: (b.status, b.concluded_at) for b in Battle.objects.all()}
        assert len(after) == len(before) == 5
        assert after == {
            "again": ("concluded", T3),
            "other": ("concluded", T1),
            "bulk": ("concluded", T2),
            "timed": ("concluded", T1),
            "draft": ("draft", None),
        }
        assert Battle.objects.get(pk=timed.pk).concluded_at == T1
    finally:
        _migrate(AFTER)
