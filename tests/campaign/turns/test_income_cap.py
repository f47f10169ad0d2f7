"""Turn-end income stops at the treasury's maximum (``campaign.core.limits.NUMBER_MAX``, the
maximum adjustments are refused past): what is not credited is said on the ledger line,
in the reader's language, and in the turn's summary; reopening the turn removes it."""

from __future__ import annotations

import pytest
from django.utils import translation

from campaign.core import limits
from campaign.core.stored_text import stored_text
from campaign.turns.closing import (
    campaign_turn_close,
    campaign_turn_open,
    campaign_turn_reopen,
    turn_plan,
)
from campaign.turns.models import LedgerEntry
from campaign.turns.treasury import Balance, income_capped, treasury_adjust, treasury_balance

pytestmark = pytest.mark.django_db


def test_income_capped_cuts_the_credit_at_the_maximum():
    top = limits.NUMBER_MAX
    assert income_capped(Balance(0, 0), 350, 1) == (Balance(350, 1), Balance(0, 0))
    assert income_capped(Balance(top - 100, top), 350, 1) == (Balance(100, 0), Balance(250, 1))
    assert income_capped(Balance(top, 5), 350, 1) == (Balance(0, 1), Balance(350, 0))


def _fill(s, resources_room: int, *, technology_full: bool) -> Balance:
    """Norway's treasury ``resources_room`` below the maximum (technology at it if asked)."""
    start = treasury_balance(campaign=s.campaign, faction=s.norge)
    treasury_adjust(
        campaign=s.campaign,
        faction=s.norge,
        resources=limits.NUMBER_MAX - start.resources - resources_room,
        technology=(limits.NUMBER_MAX - start.technology) if technology_full else 0,
        reason="chest",
        user=s.organiser,
    )
    return treasury_balance(campaign=s.campaign, faction=s.norge)


def test_income_past_the_maximum_is_capped_with_a_ledger_line_saying_so(sample):
    s = sample
    turn = campaign_turn_open(campaign=s.campaign, user=s.organiser)
    _fill(s, 30, technology_full=True)
    plan = turn_plan(campaign=s.campaign)
    income = {pk: (r, t) for pk, _n, r, t in plan.income}
    # The preview already shows what will be credited: 30 of Norway's income, no technology.
    assert income[s.norge.pk] == (30, 0)
    full_r = plan.income_capped[s.norge.pk][0] + 30
    assert plan.income_capped[s.norge.pk] == (full_r - 30, 1)
    assert full_r > 30  # Norway's territories bring more than the room left
    campaign_turn_close(campaign=s.campaign, user=s.organiser)
    assert treasury_balance(campaign=s.campaign, faction=s.norge) == Balance(
        limits.NUMBER_MAX, limits.NUMBER_MAX
    )
    entry = LedgerEntry.objects.get(faction=s.norge, kind=LedgerEntry.Kind.INCOME)
    assert (entry.resources, entry.technology) == (30, 0)
    assert entry.reason == (
        f"income of turn {turn.number}, capped at the maximum of {limits.NUMBER_MAX}: "
        f"{full_r - 30} resources and 1 technology not credited"
    )
    with translation.override("fr"):
        assert stored_text(entry.reason) == (
            f"revenus du tour {turn.number}, plafonnés au maximum de {limits.NUMBER_MAX}\u202f: "
            f"{full_r - 30} ressources et 1 technologie non crédités"
        )
    with translation.override("en"):
        assert stored_text(entry.reason) == entry.reason
    # Qatzrin, far from the maximum, is paid in full with the plain line.
    qatzrin = LedgerEntry.objects.get(faction=s.qatzrin, kind=LedgerEntry.Kind.INCOME)
    assert qatzrin.reason == f"income of turn {turn.number}"
    turn.refresh_from_db()
    norway = next(i for i in turn.summary["income"] if i["faction"] == s.norge.name)
    assert norway == {
        "faction": s.norge.name,
        "resources": 30,
        "technology": 0,
        "capped_resources": full_r - 30,
        "capped_technology": 1,
    }
    campaign_turn_reopen(campaign=s.campaign, user=s.organiser, turn=turn.number)
    assert not LedgerEntry.objects.filter(kind=LedgerEntry.Kind.INCOME).exists()


def test_a_full_treasury_still_gets_a_line_saying_nothing_was_credited(sample):
    s = sample
    turn = campaign_turn_open(campaign=s.campaign, user=s.organiser)
    _fill(s, 0, technology_full=True)
    campaign_turn_close(campaign=s.campaign, user=s.organiser)
    entry = LedgerEntry.objects.get(faction=s.norge, kind=LedgerEntry.Kind.INCOME)
    assert (entry.resources, entry.technology) == (0, 0)
    assert entry.reason.startswith(f"income of turn {turn.number}, capped at the maximum of ")
    assert treasury_balance(campaign=s.campaign, faction=s.norge) == Balance(
        limits.NUMBER_MAX, limits.NUMBER_MAX
    )
