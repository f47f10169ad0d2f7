"""The data migration that gives every concluded battle its ``concluded_at``."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.migrations import migrate_latest, migrate_to

BEFORE = ("battles", "0009_battle_mode_turns")
AFTER = ("battles", "0010_fill_concluded_at")
T1 = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
T2 = datetime(2026, 3, 2, 11, 0, tzinfo=UTC)
T3 = datetime(2026, 3, 3, 12, 0, tzinfo=UTC)


def _history(apps, battle, *rows):
    """History rows of ``battle``: (status, date) each, as saves would have written them."""
    History = apps.get_model("battles", "HistoricalBattle")
    for status, date in rows:
        fields = {
            f.attname: getattr(battle, f.attname)
            for f in History._meta.concrete_fields
            if hasattr(battle, f.attname) and f.attname != "history_id"
        }
        History.objects.create(**(fields | {"status": status}), history_date=date, history_type="~")


@pytest.mark.django_db(transaction=True)
def test_concluded_battles_without_a_time_get_the_time_they_became_concluded():
    apps = migrate_to(BEFORE)
    try:
        Battle = apps.get_model("battles", "Battle")
        campaign = apps.get_model("campaign", "Campaign").objects.create(
            name="League", slug="league"
        )
        # Drafted at T1, concluded at T2, reopened at T3 and concluded again: the last T3.
        again = Battle.objects.create(
            campaign=campaign, name="Again", slug="again", status="concluded"
        )
        _history(apps, again, ("draft", T1), ("concluded", T2), ("draft", T2), ("concluded", T3))
        # Concluded from its first row (how other systems' battles were recorded).
        recorded = Battle.objects.create(
            campaign=campaign, name="Other", slug="other", status="concluded"
        )
        _history(apps, recorded, ("concluded", T1))
        # No history row at all (bulk writes): its last update.
        bulk = Battle.objects.create(
            campaign=campaign, name="Bulk", slug="bulk", status="concluded"
        )
        Battle.objects.filter(pk=bulk.pk).update(updated_at=T2)
        # Left alone: a battle with its time, and a draft.
        timed = Battle.objects.create(
            campaign=campaign, name="Timed", slug="timed", status="concluded", concluded_at=T1
        )
        Battle.objects.create(campaign=campaign, name="Draft", slug="draft")
        before = {b.slug: (b.status, b.concluded_at) for b in Battle.objects.all()}
        assert sum(at is None for status, at in before.values() if status == "concluded") == 3

        Battle = migrate_to(AFTER).get_model("battles", "Battle")

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
        migrate_latest()
