"""``manage.py demo``'s first turn of the sample leaves repairs in progress, once."""

from __future__ import annotations

import pytest
from django.utils import translation

from campaign.sample.loader import sample_load
from campaign.turns.demo import sample_turn_demo
from campaign.turns.models import RepairOrder

pytestmark = pytest.mark.django_db


def test_the_demo_turn_leaves_repairs_in_progress_at_the_yards():
    campaign = sample_load().campaign
    with translation.override("en"):
        lines = sample_turn_demo(campaign=campaign)
    assert lines[-1] == "turn 1 closed"
    # The G+ repair at their colony's small yard; the crippled Dreda does not fit its queue.
    assert (
        "no repair: yard Miranda colony A: 39 work units ordered, 0 already queued, "
        "the yard holds 16 (4 a turn × 4 turns)"
    ) in lines
    open_orders = RepairOrder.objects.filter(campaign=campaign, status="queued")
    assert open_orders.exists()
    assert {o.yard.slug for o in open_orders} == {"petra-iv", "miranda-colony-a"}
    assert all(o.eta_turn >= 2 for o in open_orders)
    assert list(campaign.turns.values_list("number", "status")) == [(1, "closed"), (2, "open")]
    assert sample_turn_demo(campaign=campaign) == []
