"""Treasury writes arriving at once on PostgreSQL (two threads, two connections): the
second waits for the first's ledger entry (``campaign.turns.treasury.treasury_lock``), so two
credits cannot both pass the maximum and an adjustment cannot slip past a turn's income
cap. Each test widens the race the way test_turn_concurrency does: after reading a
balance, a thread waits (2 s at most) for the other to read too; with the lock the other
is still waiting for the campaign row, without it both read the same balance (tried:
both tests then fail, the treasury ending past the maximum)."""

import contextlib
import threading

import pytest
from django.db import connection
from django.utils import translation

from campaign.core import limits
from campaign.turns import closing, treasury
from campaign.turns.closing import campaign_turn_open
from campaign.turns.errors import TurnActionError
from campaign.turns.models import LedgerEntry

pytestmark = pytest.mark.integration


def _meeting_after(module, name: str, meeting: threading.Barrier, monkeypatch) -> None:
    """``module.name`` (a balance reader) waits at ``meeting`` after it has read."""
    read = getattr(module, name)

    def slow(*args, **kwargs):
        value = read(*args, **kwargs)
        with contextlib.suppress(threading.BrokenBarrierError):
            meeting.wait()
        return value

    monkeypatch.setattr(module, name, slow)


def _run_together(*jobs) -> list[BaseException]:
    start = threading.Barrier(len(jobs))
    errors: list[BaseException] = []

    def run(job) -> None:
        try:
            start.wait()
            with translation.override("en"):  # each thread starts in French
                job()
        except BaseException as exc:  # reported to the test's thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def test_two_credits_to_the_maximum_at_once_pass_only_once(
    transactional_db,
    sample,
    monkeypatch,
):
    if connection.vendor != "postgresql":
        pytest.fail("integration tests need DATABASE_URL to point at PostgreSQL")
    s = sample
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    room = (
        limits.NUMBER_MAX
        - treasury.treasury_balance(campaign=s.campaign, faction=s.norge).resources
    )
    _meeting_after(treasury, "treasury_balance", threading.Barrier(2, timeout=2), monkeypatch)

    def credit() -> None:
        treasury.treasury_adjust(
            campaign=s.campaign, faction=s.norge, resources=room, reason="chest", user=s.organiser
        )

    errors = _run_together(credit, credit)
    assert [type(e) for e in errors] == [TurnActionError]
    assert "would pass the maximum" in str(errors[0])
    held = treasury.treasury_balance(campaign=s.campaign, faction=s.norge)
    assert held.resources == limits.NUMBER_MAX


def test_an_adjustment_during_a_turn_close_cannot_push_income_past_the_maximum(
    transactional_db,
    sample,
    monkeypatch,
):
    if connection.vendor != "postgresql":
        pytest.fail("integration tests need DATABASE_URL to point at PostgreSQL")
    s = sample
    closing.campaign_turn_open(campaign=s.campaign, user=s.organiser)
    room = (
        limits.NUMBER_MAX
        - treasury.treasury_balance(campaign=s.campaign, faction=s.norge).resources
    )
    meeting = threading.Barrier(2, timeout=2)
    _meeting_after(treasury, "treasury_balance", meeting, monkeypatch)
    _meeting_after(closing, "treasury_balances", meeting, monkeypatch)

    def close() -> None:
        closing.campaign_turn_close(campaign=s.campaign, user=s.organiser)

    def credit() -> None:
        treasury.treasury_adjust(
            campaign=s.campaign, faction=s.norge, resources=room, reason="chest", user=s.organiser
        )

    errors = _run_together(close, credit)
    held = treasury.treasury_balance(campaign=s.campaign, faction=s.norge)
    income = LedgerEntry.objects.get(faction=s.norge, kind=LedgerEntry.Kind.INCOME)
    credited = LedgerEntry.objects.filter(faction=s.norge, kind="adjustment", reason="chest")
    # Whichever ran second saw the other's entry: the credit first, the income is capped to
    # nothing; the income first, the credit would pass the maximum and is refused.
    if credited.exists():
        assert errors == []
        assert (income.resources, held.resources) == (0, limits.NUMBER_MAX)
        assert ", capped at the maximum of " in income.reason
    else:
        assert [type(e) for e in errors] == [TurnActionError]
        assert income.resources > 0
        assert held.resources == limits.NUMBER_MAX - room + income.resources
