"""Repairs meet battles: set-up leaves ships under repair out; undoing a battle cancels the
repairs ordered on its damage (refunded) or is refused once a yard has mended it."""

import pytest
from django.utils import translation

from battles.services import BattleActionError, battle_reopen, eligible_ships
from campaign.turns.closing import campaign_turn_close
from campaign.turns.repairs import repair_cancel, repair_order
from campaign.turns.treasury import treasury_balance

pytestmark = pytest.mark.django_db


def test_a_ship_under_repair_is_not_offered_for_a_battle(damaged):
    s = damaged
    assert s.tord_a in eligible_ships(campaign=s.campaign)
    order = repair_order(campaign=s.campaign, ship=s.tord_a, user=s.norge_player, hull=8)
    assert s.tord_a not in eligible_ships(campaign=s.campaign)
    repair_cancel(order=order, user=s.norge_player)
    assert s.tord_a in eligible_ships(campaign=s.campaign)


def test_undoing_the_battle_cancels_unstarted_repairs_and_refunds_them(damaged):
    s = damaged
    order = repair_order(campaign=s.campaign, ship=s.tord_a, user=s.norge_player, hull=8)
    before = treasury_balance(campaign=s.campaign, faction=s.norge).resources
    battle_reopen(battle=s.battle, user=s.organiser)
    order.refresh_from_db()
    s.tord_a.refresh_from_db()
    assert order.status == "cancelled"
    assert treasury_balance(campaign=s.campaign, faction=s.norge).resources == before + 8
    assert (s.tord_a.hull_lost, s.tord_a.status) == (0, "active")


def test_undoing_is_refused_once_a_yard_mended_its_damage(damaged):
    s = damaged
    repair_order(campaign=s.campaign, ship=s.tord_a, user=s.norge_player, hull=8)
    campaign_turn_close(campaign=s.campaign, user=s.organiser)
    s.tord_a.refresh_from_db()
    hull_lost = s.tord_a.hull_lost
    with (
        translation.override("en"),
        pytest.raises(BattleActionError, match="repairs were already done"),
    ):
        battle_reopen(battle=s.battle, user=s.organiser)
    s.battle.refresh_from_db()
    s.tord_a.refresh_from_db()
    assert (s.battle.status, s.tord_a.hull_lost) == ("concluded", hull_lost)
