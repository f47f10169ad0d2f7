"""Who acts: every service that writes takes ``user`` (no default), its permission check
always runs, the scheduler and the commands act as the named system actor, and a quote
never calls a write."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from battles.play.game_turns import (
    turn_deadline_set,
    turn_orders_submit,
    turn_play_advance,
    turn_play_end,
    turn_play_start,
)
from battles.services import (
    battle_create,
    battle_reopen,
    battle_reseed,
    battle_resolve,
    record_confirm,
    record_submit,
)
from campaign.core.actors import SYSTEM
from campaign.core.refusals import Refused
from campaign.turns import building, closing, moves, repairs, treasury
from campaign.turns.closing import campaign_turn_close, campaign_turn_open
from campaign.turns.errors import TurnPermissionError
from campaign.turns.models import CampaignTurn, Construction, LedgerEntry, RepairOrder
from campaign.turns.tasks import close_due_turns_task
from campaign.turns.treasury import treasury_balance
from tests.campaign.turns.conftest import norway_battle

pytestmark = pytest.mark.django_db


def _post(user, url, body):
    c = Client()
    c.force_login(user)
    return c.post(url, body, content_type="application/json")


@pytest.mark.parametrize(
    "who, status",
    [("norge_player", 200), ("organiser", 200), ("qatzrin_player", 403)],
)
def test_a_repair_quote_never_calls_the_write_service(damaged, who, status):
    s = damaged
    before = (treasury_balance(campaign=s.campaign, faction=s.norge), RepairOrder.objects.count())
    with mock.patch.object(repairs, "repair_order") as write:
        r = _post(
            getattr(s, who),
            "/api/campaigns/sample/repairs",
            {"ship": s.tord_a.pk, "hull": 2, "dry_run": True},
        )
    assert r.status_code == status, r.content
    assert write.call_count == 0
    if status == 200:
        assert (r.json()["status"], r.json()["cost"]) == (
            "quote",
            repairs.repair_quote(campaign=s.campaign, ship=s.tord_a, user=SYSTEM, hull=2).cost,
        )
    assert (
        treasury_balance(campaign=s.campaign, faction=s.norge),
        RepairOrder.objects.count(),
    ) == before


@pytest.mark.parametrize("who, status", [("norge_player", 200), ("qatzrin_player", 403)])
def test_a_construction_quote_never_calls_the_write_service(damaged, who, status):
    s = damaged
    body = {
        "faction": "kongeriket-norge",
        "yard": s.yard.slug,
        "fleet": s.fleet.slug,
        "light_kind": "gunboat",
        "light_variant": "heavy-transport",
        "dry_run": True,
    }
    before = (treasury_balance(campaign=s.campaign, faction=s.norge), Construction.objects.count())
    with mock.patch.object(building, "construction_order") as write:
        r = _post(getattr(s, who), "/api/campaigns/sample/constructions", body)
    assert r.status_code == status, r.content
    assert write.call_count == 0
    assert (
        treasury_balance(campaign=s.campaign, faction=s.norge),
        Construction.objects.count(),
    ) == before


def test_the_repair_quote_checks_the_same_permission_as_the_order(damaged):
    s = damaged
    with pytest.raises(TurnPermissionError, match="Kongeriket Norge"):
        repairs.repair_quote(campaign=s.campaign, ship=s.tord_a, user=s.qatzrin_player, hull=1)
    quote = repairs.repair_quote(campaign=s.campaign, ship=s.tord_a, user=s.norge_player, hull=1)
    assert (quote.hull, quote.yard) == (1, s.yard)


@pytest.mark.parametrize(
    "service, kwargs",
    [
        (closing.campaign_turn_open, {"campaign": None}),
        (closing.campaign_turn_close, {"campaign": None}),
        (closing.campaign_turn_reopen, {"campaign": None, "turn": 1}),
        (repairs.repair_quote, {"campaign": None, "ship": None}),
        (repairs.repair_order, {"campaign": None, "ship": None}),
        (repairs.repairs_release_for_battle, {"battle": None}),
        (building.construction_quote, {"campaign": None, "faction": None}),
        (building.construction_order, {"campaign": None}),
        (moves.fleet_move_order, {"campaign": None, "fleet": None, "destination": None}),
        (
            treasury.treasury_adjust,
            {"campaign": None, "faction": None, "resources": 1, "reason": "x"},
        ),
        (battle_create, {"campaign": None, "name": "x", "sides": []}),
        (battle_resolve, {"battle": None}),
        (battle_reseed, {"battle": None, "reason": ""}),
        (battle_reopen, {"battle": None}),
        (record_submit, {"battle": None, "side": None, "results": []}),
        (record_confirm, {"entry": None}),
        (turn_play_start, {"battle": None}),
        (turn_orders_submit, {"battle": None, "side": None, "orders": {}}),
        (turn_play_advance, {"battle": None}),
        (turn_play_end, {"battle": None}),
        (turn_deadline_set, {"battle": None, "deadline": None}),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_a_service_called_without_user_is_a_type_error(service, kwargs):
    with pytest.raises(TypeError, match="user"):
        service(**kwargs)


def test_no_user_is_no_longer_a_pass_for_the_turn_close(damaged):
    s = damaged
    with pytest.raises(TurnPermissionError):
        campaign_turn_close(campaign=s.campaign, user=None)
    assert CampaignTurn.objects.get(campaign=s.campaign, number=1).status == "open"


def test_the_battle_services_check_who_acts(damaged):
    s = damaged
    draft = norway_battle(s.campaign, s.fleet, {}, name="Second raid")
    with pytest.raises(Refused) as refused:
        battle_reopen(battle=draft, user=s.norge_player)
    assert refused.value.status == 403  # a member without the role
    with pytest.raises(Refused) as refused:
        battle_reopen(battle=draft, user=s.other_org)
    assert refused.value.status == 404  # not a member: the battle does not exist for them
    assert battle_reopen(battle=draft, user=s.organiser).status == "draft"


def test_the_scheduler_closes_a_due_turn_as_the_system_actor(damaged):
    s = damaged
    turn = CampaignTurn.objects.get(campaign=s.campaign, status="open")
    turn.deadline = timezone.now() - timedelta(seconds=1)
    turn.save()
    assert close_due_turns_task.delay().get() == [turn.pk]
    turn.refresh_from_db()
    assert turn.status == "closed"
    income = LedgerEntry.objects.filter(campaign=s.campaign, kind="income")
    assert income.exists() and set(income.values_list("user", flat=True)) == {None}


def test_the_close_due_turns_command_acts_as_the_system_actor(damaged, capsys):
    s = damaged
    campaign_turn_close(campaign=s.campaign, user=s.organiser)
    turn = campaign_turn_open(
        campaign=s.campaign, user=SYSTEM, deadline=timezone.now() + timedelta(minutes=5)
    )
    CampaignTurn.objects.filter(pk=turn.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    call_command("close_due_turns")
    assert "closed sample turn 2" in capsys.readouterr().out
    assert CampaignTurn.objects.get(pk=turn.pk).status == "closed"
