"""Moves along links: orders, refusals (nothing written), the close advancing fleets,
``Fleet.territory`` derived, meetings in a system and on a link drafting a battle, reopen."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.models import Battle
from campaign.starmap.models import FleetPosition, MapMove
from campaign.starmap.movement import map_move_cancel, map_move_order
from campaign.turns.access import turn_summary_for
from campaign.turns.closing import campaign_turn_close, campaign_turn_open, campaign_turn_reopen
from campaign.turns.errors import TurnActionError, TurnPermissionError
from campaign.turns.moves import fleet_move_order
from factions.models import Fleet

pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture
def turn(starmap):
    campaign_turn_open(campaign=starmap.campaign, user=starmap.organiser)
    return starmap


def order(s, fleet, destination, user=None):
    return map_move_order(
        campaign=s.campaign, fleet=fleet, destination=destination, user=user or s.organiser
    )


def close(s, capture):
    with capture(execute=True):
        return campaign_turn_close(campaign=s.campaign, user=s.organiser)


def where(fleet):
    p = FleetPosition.objects.get(fleet=fleet)
    if p.system_id:
        return p.system.name
    return (p.link_id, p.heading.name, p.departed_turn, p.arrival_turn)


def test_order_takes_the_quickest_route(turn):
    s = turn
    move = order(s, s.home, s.rigel, s.norge_player)
    assert move.route == [s.sol.pk, s.deneb.pk, s.rigel.pk]
    assert (move.travel_turns, move.status, move.turn, move.ordered_by) == (
        2,
        "queued",
        1,
        s.norge_player,
    )


def test_new_queued_order_replaces_the_last(turn):
    s = turn
    first = order(s, s.home, s.rigel)
    second = order(s, s.home, s.vega)
    first.refresh_from_db()
    assert (first.status, second.status, second.route) == (
        "cancelled",
        "queued",
        [s.sol.pk, s.vega.pk],
    )


@pytest.mark.parametrize(
    ("case", "error", "message"),
    [
        ("no_link", TurnActionError, "destination: no link leads from Sol to Far"),
        (
            "reach",
            TurnActionError,
            "destination: Rigel is 2 turns from Sol, beyond the reach of an order (1 turns)",
        ),
        ("rival", TurnPermissionError, "fleet: you do not give orders for Kongeriket Norge"),
        ("there", TurnActionError, "destination: Home Fleet is in Sol already"),
        ("moving", TurnActionError, "fleet: Home Fleet is already moving (towards Vega)"),
        ("other_campaign", TurnActionError, "destination: Elsewhere is not a system of this"),
        ("off_map", TurnActionError, "fleet: Loose is not on the map of this campaign"),
    ],
)
def test_bad_orders_are_refused_and_write_nothing(turn, case, error, message, rival):
    s = turn
    fleet, destination, user = s.home, s.rigel, s.organiser
    if case == "no_link":
        destination = s.far
    elif case == "reach":
        s.campaign.turn_settings = {"move_reach_turns": 1}
        s.campaign.save()
    elif case == "rival":
        user = s.qatzrin_player
    elif case == "there":
        destination = s.sol
    elif case == "moving":
        FleetPosition.objects.filter(fleet=s.home).update(
            system=None, link=s.sol_vega, heading=s.vega, departed_turn=1, arrival_turn=2
        )
    elif case == "other_campaign":
        destination = rival.campaign.star_systems.create(name="Elsewhere", slug="e", x=1, y=1)
    elif case == "off_map":
        fleet = Fleet.objects.create(faction=s.norge, name="Loose", slug="loose")
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        order(s, fleet, destination, user)
    assert MapMove.objects.count() == 0


def test_no_open_turn_is_refused(starmap):
    with pytest.raises(TurnActionError, match="no open turn"):
        order(starmap, starmap.home, starmap.vega)
    assert MapMove.objects.count() == 0


def test_cancel_queued_only(turn):
    s = turn
    move = order(s, s.home, s.vega)
    with pytest.raises(TurnPermissionError):
        map_move_cancel(move=move, user=s.qatzrin_player)
    assert map_move_cancel(move=move, user=s.norge_player).status == "cancelled"
    with pytest.raises(TurnActionError, match="cannot be cancelled"):
        map_move_cancel(move=move, user=s.norge_player)


def test_close_advances_one_turn_of_travel_and_derives_territory(
    turn, django_capture_on_commit_callbacks
):
    s = turn
    s.shadow.delete()  # no meeting on the way
    move = order(s, s.home, s.vega)
    raid = order(s, s.raiders, s.vega)  # Rigel → Vega: the 2-turn link
    t1 = close(s, django_capture_on_commit_callbacks)
    assert where(s.home) == "Vega"
    assert where(s.raiders) == (s.vega_rigel.pk, "Vega", 1, 2)
    move.refresh_from_db()
    raid.refresh_from_db()
    assert (move.status, raid.status) == ("done", "under_way")
    s.home.refresh_from_db()
    s.raiders.refresh_from_db()
    assert (s.home.territory, s.raiders.territory) == (None, None)  # left Oslo, Prime
    assert t1.summary["map_moves"] == [
        {
            "fleet": s.home.pk,
            "name": "Home Fleet",
            "from": "Sol",
            "to": "Vega",
            "arrival_turn": None,
        },
        {
            "fleet": s.raiders.pk,
            "name": "Raiders",
            "from": "Rigel",
            "to": "Vega – Rigel",
            "arrival_turn": 2,
        },
    ]
    # Home Fleet goes home at turn 2; Raiders arrive at Vega as it leaves: no meeting.
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    order(s, s.home, s.sol)
    close(s, django_capture_on_commit_callbacks)
    assert (where(s.home), where(s.raiders)) == ("Sol", "Vega")
    s.home.refresh_from_db()
    assert s.home.territory == s.oslo  # back at its own station
    assert Battle.objects.count() == 0


def test_meeting_in_a_system_drafts_a_battle(turn, django_capture_on_commit_callbacks):
    s = turn
    order(s, s.home, s.rigel)  # through Deneb, where Shadow waits
    close(s, django_capture_on_commit_callbacks)
    battle = Battle.objects.get()
    assert (battle.name, battle.system, battle.location, battle.campaign_turn, battle.status) == (
        "Deneb, tour 1",  # named in the campaign's language (French)
        s.deneb,
        "Deneb",
        1,
        "draft",
    )
    sides = [
        (side.faction.name, side.fleet.name, sorted(p.ship.name for p in side.participants.all()))
        for side in battle.sides.order_by("order")
    ]
    assert sides == [
        ("Kongeriket Norge", "Home Fleet", ["Home Fleet One"]),
        ("Qatzrin", "Shadow", ["Shadow One"]),
    ]


def test_crossing_on_a_link_drafts_a_battle(turn, django_capture_on_commit_callbacks):
    s = turn
    FleetPosition.objects.filter(fleet=s.home).update(system=s.vega)
    order(s, s.home, s.rigel)  # Vega → Rigel, 2 turns
    order(s, s.raiders, s.vega)  # Rigel → Vega, 2 turns
    close(s, django_capture_on_commit_callbacks)
    battle = Battle.objects.get()
    assert (battle.name, battle.system, battle.location) == (
        "Vega – Rigel, tour 1",
        None,
        "Vega – Rigel",
    )
    assert sorted(side.faction.name for side in battle.sides.all()) == [
        "Kongeriket Norge",
        "Qatzrin",
    ]
    # Still on the link at the next close: they met already, no second battle.
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    close(s, django_capture_on_commit_callbacks)
    assert Battle.objects.count() == 1
    assert (where(s.home), where(s.raiders)) == ("Rigel", "Vega")


def test_reopen_puts_fleets_back(turn, django_capture_on_commit_callbacks):
    s = turn
    s.shadow.delete()
    move = order(s, s.home, s.rigel)
    close(s, django_capture_on_commit_callbacks)
    assert where(s.home) == "Deneb"
    campaign_turn_reopen(campaign=s.campaign, user=s.organiser, turn=1)
    move.refresh_from_db()
    s.home.refresh_from_db()
    assert (where(s.home), move.status, s.home.territory) == ("Sol", "queued", s.oslo)


def test_territory_orders_refused_on_a_map(turn):
    with pytest.raises(TurnActionError, match="has a star map"):
        fleet_move_order(
            campaign=turn.campaign, fleet=turn.home, destination=turn.prime, user=turn.organiser
        )


@pytest.mark.parametrize(
    ("who", "fleets"),
    [
        ("organiser", ["Home Fleet", "Raiders", "Shadow"]),
        ("norge_player", ["Home Fleet", "Raiders"]),
        ("qatzrin_player", ["Home Fleet", "Raiders", "Shadow"]),
        ("chronicler", ["Home Fleet", "Raiders"]),
        (None, ["Home Fleet", "Raiders"]),
    ],
)
def test_turn_summary_map_moves_follow_the_map(
    turn, django_capture_on_commit_callbacks, who, fleets
):
    s = turn
    order(s, s.home, s.vega)
    order(s, s.raiders, s.vega)
    order(s, s.shadow, s.sol)
    closed = close(s, django_capture_on_commit_callbacks)
    user = getattr(s, who) if who else None
    summary = turn_summary_for(user, closed.summary, campaign=s.campaign)
    assert sorted(m["name"] for m in summary["map_moves"]) == fleets


def test_close_query_count_flat_as_moving_fleets_grow(turn, django_capture_on_commit_callbacks):
    s = turn
    s.shadow.delete()

    def close_with(moving):
        for i in range(moving):
            fleet = Fleet.objects.create(faction=s.norge, name=f"Extra {i}", slug=f"extra-{i}")
            FleetPosition.objects.create(campaign=s.campaign, fleet=fleet, system=s.sol)
            order(s, fleet, s.vega)
        with CaptureQueriesContext(connection) as queries:
            close(s, django_capture_on_commit_callbacks)
        Fleet.objects.filter(slug__startswith="extra-").delete()
        campaign_turn_open(campaign=s.campaign, user=s.organiser)
        return len(queries)

    assert close_with(1) == close_with(6)
