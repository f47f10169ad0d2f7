"""Repairs, construction, closing and reopening: bad input names its ship/yard/field and
changes nothing; closing is idempotent; reopening restores exactly; the battle seams."""

from __future__ import annotations

import pytest
from django.utils import timezone, translation

from campaign.core.actors import SYSTEM
from campaign.core.messages import decode
from campaign.turns.building import construction_order, construction_quote
from campaign.turns.closing import (
    campaign_turn_close,
    campaign_turn_deadline,
    campaign_turn_open,
    campaign_turn_reopen,
    close_due_turns,
    turn_plan,
)
from campaign.turns.errors import TurnActionError, TurnPermissionError
from campaign.turns.models import CampaignTurn, LedgerEntry, RepairOrder
from campaign.turns.repairs import (
    RepairsBlockBattleReopen,
    repair_cancel,
    repair_order,
    repair_quote,
    repairs_release_for_battle,
    ships_under_repair,
)
from campaign.turns.treasury import treasury_adjust, treasury_balance
from factions.models import LightUnitGroup, Ship, ShipClass
from tests.campaign.turns.conftest import norway_battle

# These tests match the services' English messages: read them in English whatever language an
# earlier test left active (French is the default).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _snapshot(s):
    ships = list(
        Ship.objects.order_by("pk").values_list(
            "pk", "hull_lost", "armour_lost", "crew_lost", "systems_lost", "status"
        )
    )
    ledger = list(LedgerEntry.objects.order_by("pk").values_list("pk", "resources", "technology"))
    orders = list(RepairOrder.objects.order_by("pk").values())
    lights = list(LightUnitGroup.objects.order_by("pk").values_list("pk", "strength", "carrier_id"))
    return ships, ledger, orders, lights


@pytest.mark.parametrize(
    "ship_attr, kwargs, message",
    [
        ("tord_b", {"hull": 1}, "is destroyed: it cannot be repaired"),
        ("tord_a", {"hull": 9}, "hull: 9 for ship"),
        ("tord_a", {"systems": ["beam-b"]}, "systems: ['beam-b'] not lost by ship"),
        ("tord_a", {}, "nothing to repair was ordered"),
        ("tord_a", {"armour": -1}, "armour: -1 is not a whole number"),
    ],
)
def test_bad_repair_orders_name_the_ship_and_change_nothing(damaged, ship_attr, kwargs, message):
    s = damaged
    before = _snapshot(s)
    with pytest.raises(
        TurnActionError, match=message.replace("[", r"\[").replace("]", r"\]")
    ) as err:
        repair_order(campaign=s.campaign, ship=getattr(s, ship_attr), user=s.norge_player, **kwargs)
    assert "ship Tordenskjold" in str(err.value) or kwargs
    assert _snapshot(s) == before


def test_repairs_away_from_a_friendly_yard_apply_only_damage_control(damaged):
    s = damaged
    s.fleet.territory = None
    s.fleet.save()
    before = _snapshot(s)
    with pytest.raises(TurnActionError, match=r"in transit; out of port only damage control"):
        repair_order(campaign=s.campaign, ship=s.tord_a, user=s.organiser, hull=1)
    s.fleet.territory = s.norge.territories.get(slug="arendal")
    s.fleet.save()
    with pytest.raises(TurnActionError, match=r"Arendal has no shipyard"):
        repair_quote(
            user=SYSTEM, campaign=s.campaign, ship=Ship.objects.get(pk=s.tord_a.pk), hull=1
        )
    s.fleet.territory = s.campaign.factions.get(slug="phalon").territories.get(slug="petra-iv")
    s.fleet.save()
    with pytest.raises(TurnActionError, match=r"Petra IV is not a territory of Kongeriket Norge"):
        repair_quote(
            user=SYSTEM, campaign=s.campaign, ship=Ship.objects.get(pk=s.tord_a.pk), hull=1
        )
    assert _snapshot(s) == before


def test_more_work_than_the_yard_holds_is_refused_naming_the_yard(damaged):
    s = damaged
    s.campaign.turn_settings = {"yard_queue_turns": 1}
    s.campaign.save()
    before = _snapshot(s)
    with pytest.raises(
        TurnActionError,
        match=r"yard Trøndelag: 13 work units ordered, 0 already queued, the yard holds 12",
    ):
        repair_order(
            campaign=s.campaign,
            ship=s.tord_a,
            user=s.organiser,
            hull=8,
            armour=2,
            crew=1,
            systems=["beam-a"],
        )
    assert _snapshot(s) == before


def test_a_player_cannot_act_for_another_faction_nor_pay_more_than_held(damaged):
    s = damaged
    before = _snapshot(s)
    for user in (s.qatzrin_player, s.chronicler, s.outsider, s.other_org):
        with pytest.raises(TurnPermissionError, match="Kongeriket Norge"):
            repair_order(campaign=s.campaign, ship=s.tord_a, user=user, hull=1)
    treasury_adjust(
        campaign=s.campaign, faction=s.norge, resources=-595, reason="tax", user=s.organiser
    )
    before = _snapshot(s)
    with pytest.raises(TurnActionError, match=r"resources: Kongeriket Norge has 5, 8 needed"):
        repair_order(campaign=s.campaign, ship=s.tord_a, user=s.norge_player, hull=8)
    assert _snapshot(s) == before


def test_cancelling_refunds_what_was_not_done(damaged):
    s = damaged
    s.campaign.turn_settings = {"repair_percent": 100}  # whole Fleet Book points
    s.campaign.save()
    order = repair_order(
        campaign=s.campaign,
        ship=s.tord_a,
        user=s.norge_player,
        hull=8,
        armour=2,
        systems=["beam-a"],
    )
    # hull box 46/23 = 2, armour box (6 boxes, 12 points) 2, beam-a 18
    assert order.cost == 8 * 2 + 2 * 2 + 18 == 38
    assert s.tord_a in ships_under_repair(campaign=s.campaign)
    s.yard.shipyard_capacity = 9
    s.yard.save()
    campaign_turn_close(campaign=s.campaign, user=s.organiser)  # 9 units: 8 hull + 1 armour
    order.refresh_from_db()
    assert (order.hull_done, order.armour_done, order.systems_done) == (8, 1, [])
    repair_cancel(order=order, user=s.norge_player)
    order.refresh_from_db()
    assert order.status == "cancelled" and order.refunded == 2 + 18
    refund = LedgerEntry.objects.get(kind="refund")
    assert (refund.resources, refund.user, refund.faction) == (20, s.norge_player, s.norge)
    assert s.tord_a not in ships_under_repair(campaign=s.campaign)
    with pytest.raises(TurnActionError, match="is cancelled"):
        repair_cancel(order=order, user=s.organiser)


def test_closing_twice_changes_nothing(damaged):
    s = damaged
    repair_order(campaign=s.campaign, ship=s.tord_a, user=s.norge_player, hull=8)
    turn = campaign_turn_close(campaign=s.campaign, user=s.organiser)
    before = _snapshot(s)
    with pytest.raises(TurnActionError, match="no open turn"):
        campaign_turn_close(campaign=s.campaign, user=s.organiser)
    assert _snapshot(s) == before
    turn.refresh_from_db()
    assert turn.status == "closed"
    with pytest.raises(TurnPermissionError):
        campaign_turn_close(campaign=s.campaign, user=s.norge_player)


def test_reopening_restores_exactly_what_closing_did(damaged):
    s = damaged
    repair_order(
        campaign=s.campaign,
        ship=s.tord_a,
        user=s.norge_player,
        hull=8,
        armour=2,
        systems=["beam-a"],
    )
    construction_order(
        campaign=s.campaign, user=s.organiser, faction=s.norge, yard=s.yard, fleet=s.fleet,
        light_kind="gunboat", light_variant="emp",
    )  # fmt: skip
    # the destroyed Tordenskjold carried no squadron; put one on it to see it lost
    lost = LightUnitGroup.objects.create(
        name="Orphans", kind="fighter", faction=s.norge, fleet=s.fleet, carrier=s.tord_b
    )
    before = _snapshot(s)
    plan = turn_plan(campaign=s.campaign)
    # with the sample's G+ squadrons whose carriers died at Miranda (11 craft in 4 groups)
    lost_names = sorted(g.name for g in plan.squadrons_lost)
    assert lost_names == ["Avna 2", "Mijna 2", "Mijna 3", "Najna", "Orphans"]
    assert sum(g.strength for g in plan.squadrons_lost) == 11 + 6
    assert len(plan.constructions) == 1 and plan.constructions[0][1]
    campaign_turn_close(campaign=s.campaign, user=s.organiser)
    lost.refresh_from_db()
    assert lost.strength == 0
    assert _snapshot(s) != before
    campaign_turn_reopen(campaign=s.campaign, user=s.organiser, turn=1)
    assert _snapshot(s) == before
    turn = CampaignTurn.objects.get(campaign=s.campaign, number=1)
    assert turn.status == "open" and turn.summary == {}
    # and closing again gives the same result as the first time
    campaign_turn_close(campaign=s.campaign, user=s.organiser)
    s.tord_a.refresh_from_db()
    assert (s.tord_a.hull_lost, s.tord_a.armour_lost, s.tord_a.systems_lost) == (0, 0, [])


def test_reopen_is_refused_when_something_changed_since(damaged):
    s = damaged
    campaign_turn_close(campaign=s.campaign, user=s.organiser)
    treasury_adjust(
        campaign=s.campaign, faction=s.norge, resources=5, reason="late", user=s.organiser
    )
    before = _snapshot(s)
    with pytest.raises(
        TurnActionError, match=r"turn 1: Kongeriket Norge paid or was paid after the close"
    ) as refused:
        campaign_turn_reopen(campaign=s.campaign, user=s.organiser, turn=1)
    # Advice that can be followed: no page cancels a ledger entry.
    assert str(refused.value).endswith(
        "this turn can no longer be reopened: correct what must be with a treasury "
        "adjustment instead"
    )
    assert _snapshot(s) == before


def test_an_empty_next_turn_is_dropped_when_the_last_one_reopens(damaged):
    s = damaged
    campaign_turn_close(campaign=s.campaign, user=s.organiser)
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    turn = campaign_turn_reopen(campaign=s.campaign, user=s.organiser, turn=1)
    assert turn.number == 1 and list(s.campaign.turns.values_list("number", flat=True)) == [1]
    s.campaign.refresh_from_db()
    assert s.campaign.current_turn == 1


def test_due_turns_close_on_their_deadline(damaged):
    s = damaged
    turn = s.campaign.turns.get()
    turn.deadline = timezone.now() - timezone.timedelta(minutes=1)
    turn.save()
    assert [t.pk for t in close_due_turns()] == [turn.pk]
    assert close_due_turns() == []
    turn.refresh_from_db()
    assert turn.status == "closed"


def test_an_open_turns_deadline_cannot_be_moved_into_the_past(damaged):
    # A past deadline would let the next close_due_turns run close it unconfirmed.
    s = damaged
    turn = s.campaign.turns.get()
    past = timezone.now() - timezone.timedelta(minutes=1)
    with (
        translation.override("en"),
        pytest.raises(TurnActionError, match=r"^deadline: .* is past; give a future time$"),
    ):
        campaign_turn_deadline(turn=turn, user=s.organiser, deadline=past)
    turn.refresh_from_db()
    assert turn.deadline is None
    assert close_due_turns() == []
    later = timezone.now() + timezone.timedelta(days=2)
    assert campaign_turn_deadline(turn=turn, user=s.organiser, deadline=later).deadline == later
    assert campaign_turn_deadline(turn=turn, user=s.organiser, deadline=None).deadline is None


def test_battle_reopen_cancels_and_refunds_untouched_orders(damaged):
    s = damaged
    order = repair_order(campaign=s.campaign, ship=s.tord_a, user=s.norge_player, hull=8)
    balance = treasury_balance(campaign=s.campaign, faction=s.norge)
    assert repairs_release_for_battle(user=SYSTEM, battle=s.battle) == [order]
    order.refresh_from_db()
    assert order.status == "cancelled"
    assert treasury_balance(campaign=s.campaign, faction=s.norge).resources == balance.resources + 8


def test_battle_reopen_is_refused_once_repairs_were_done(damaged):
    s = damaged
    repair_order(campaign=s.campaign, ship=s.tord_a, user=s.norge_player, hull=8)
    campaign_turn_close(campaign=s.campaign, user=s.organiser)
    before = _snapshot(s)
    with pytest.raises(
        RepairsBlockBattleReopen, match=r"battle Raid on Trøndelag: repairs were already done"
    ):
        repairs_release_for_battle(user=SYSTEM, battle=s.battle)
    assert _snapshot(s) == before


def test_construction_errors_name_the_yard_fleet_or_field(damaged):
    s = damaged
    arendal = s.norge.territories.get(slug="arendal")
    qfleet = s.qatzrin.fleets.get()
    before = _snapshot(s)
    cases = [
        (
            {"yard": arendal, "fleet": s.fleet, "light_kind": "gunboat", "light_variant": "emp"},
            "yard: Arendal has no shipyard",
        ),
        (
            {"yard": s.yard, "fleet": qfleet, "light_kind": "gunboat", "light_variant": "emp"},
            "fleet: 5th long-range",
        ),
        (
            {"yard": s.yard, "fleet": s.fleet, "light_kind": "gunboat", "light_variant": "laser"},
            "light_variant: unknown gunboat",
        ),
    ]
    for spec, message in cases:
        with pytest.raises(TurnActionError, match=message):
            construction_order(campaign=s.campaign, user=s.organiser, faction=s.norge, **spec)
    big = ShipClass.objects.get(faction=s.norge, name="Steffen Konalson")
    with pytest.raises(TurnActionError, match=r"resources: Kongeriket Norge has 600, 834 needed"):
        construction_order(
            campaign=s.campaign,
            user=s.organiser,
            faction=s.norge,
            yard=s.yard,
            fleet=s.fleet,
            ship_class=big,
        )
    assert _snapshot(s) == before


def test_a_design_whose_stated_points_disagree_is_built_at_its_real_price_and_flagged(damaged):
    s = damaged
    vaktar = ShipClass.objects.get(faction=s.norge, name="Vaktar")
    vaktar.points = 10  # typed in wrong
    vaktar.save()
    quote = construction_quote(
        user=SYSTEM,
        campaign=s.campaign,
        faction=s.norge,
        yard=s.yard,
        fleet=s.fleet,
        ship_class=vaktar,
    )
    assert (quote.cost, quote.check.stated, quote.check.ok) == (67, 10, False)
    assert quote.turns == 1  # 20 mass


def test_ship_built_joins_its_fleet_with_a_history(damaged):
    s = damaged
    vaktar = ShipClass.objects.get(faction=s.norge, name="Vaktar")
    construction_order(
        campaign=s.campaign, user=s.norge_player, faction=s.norge, yard=s.yard, fleet=s.fleet,
        ship_class=vaktar, name="Vakt 1",
    )  # fmt: skip
    campaign_turn_close(campaign=s.campaign, user=s.organiser)
    ship = s.fleet.ships.get(name="Vakt 1")
    assert decode(ship.history.get().history_change_reason) == {
        "key": "turn.built",
        "params": {"n": 1, "yard": "Trøndelag"},
    }


def test_the_yard_keeps_the_eta_and_says_why_it_moved(damaged):
    s = damaged
    steffen = s.fleet.ships.get(name="Steffen Konalson")
    norway_battle(
        s.campaign, s.fleet, {steffen: {"fate": "damaged", "hull_lost": 10}}, name="Second raid"
    )
    first = repair_order(campaign=s.campaign, ship=s.tord_a, user=s.organiser, hull=8, armour=2)
    steffen.refresh_from_db()
    second = repair_order(campaign=s.campaign, ship=steffen, user=s.organiser, hull=10)
    # 10 units ahead of it, 10 of its own, 12 a turn: ends at the second turn end
    assert (first.eta_turn, second.eta_turn) == (1, 2)
    repair_cancel(order=first, user=s.norge_player)
    second.refresh_from_db()
    assert second.eta_turn == 1
    assert second.eta_note == f"was turn 2: repair of {s.tord_a} cancelled"
