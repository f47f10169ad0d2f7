"""Turn-by-turn services against the database (battles/play/game_turns.py): orders stored per
turn and side, hidden until both are in, the deadline and the auto-resolve tactics, refused
orders that change nothing, the replay from seed and stored orders, and the conclusion."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.forms.models import model_to_dict
from django.utils import timezone, translation

from battles.models import Battle, Event, Participant
from battles.models.turn_orders import TurnOrders, TurnPlay
from battles.play.game_turns import (
    TurnOrdersError,
    turn_battle_replay,
    turn_deadline_set,
    turn_orders_submit,
    turn_play_advance,
    turn_play_end,
    turn_play_start,
    turn_state,
)
from battles.play.tasks import play_due_turns
from battles.services import BattleActionError, event_rows
from campaign.core.actors import SYSTEM
from factions.models import LightUnitGroup, Ship
from tests.battles.battle_fixtures import SEED, draft_skirmish

# These tests read the services' English messages (the French ones are the catalogue's; pages and
# API requests follow their own Accept-Language).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def snapshot() -> dict:
    rows = {}
    for model in (Battle, Participant, Event, Ship, LightUnitGroup, TurnOrders, TurnPlay):
        for obj in model.objects.order_by("pk"):
            rows[(model.__name__, obj.pk)] = model_to_dict(obj)
    return rows


def ship_ids(duel, slug: str) -> list[str]:
    return [
        f"ship-{p.ship_id}"
        for p in Participant.objects.filter(
            side__battle=duel.battle, side__faction__slug=slug, ship__isnull=False
        ).order_by("pk")
    ]


@pytest.fixture
def started(duel):
    turn_play_start(user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=5)
    duel.q = ship_ids(duel, "qatzrin")
    duel.p = ship_ids(duel, "phalon")
    return duel


def test_start_freezes_the_setup_and_deploys_the_fleets(started):
    kinds = [e.kind for e in Event.objects.filter(battle=started.battle).order_by("sequence")]
    assert kinds == ["setup", "deploy"]
    play = TurnPlay.objects.get(battle=started.battle)
    assert play.setup["data"]["seed"] == SEED
    assert play.setup["data"]["fleets"] == [started.q, started.p]
    assert play.current_turn == 1
    with pytest.raises(BattleActionError, match="already being played"):
        turn_play_start(user=SYSTEM, battle=started.battle)


def test_orders_are_stored_and_the_turn_waits_for_the_other_side(started):
    turn_orders_submit(
        battle=started.battle,
        side=started.qatzrin_side,
        orders={started.q[0]: {"movement": "+2, 1T"}},
        user=started.cast.qatzrin_player,
    )
    play = TurnPlay.objects.get(battle=started.battle)
    assert play.turns_played == 0
    stored = TurnOrders.objects.get(battle=started.battle, game_turn=1)
    assert stored.orders == {started.q[0]: {"movement": "+2, 1T"}}
    assert stored.submitted_by == started.cast.qatzrin_player
    # Nothing of them in the log until the turn is played.
    assert not Event.objects.filter(battle=started.battle, kind="orders").exists()

    turn_orders_submit(
        user=SYSTEM,
        battle=started.battle,
        side=started.phalon_side,
        orders={started.p[0]: {"movement": "-2"}},
    )
    play.refresh_from_db()
    assert play.turns_played == 1
    orders = Event.objects.filter(battle=started.battle, kind="orders", game_turn=1)
    assert {e.data["ship"]: e.data["movement"] for e in orders} == {
        started.q[0]: "+2, 1T",
        started.q[1]: "+0",
        started.p[0]: "-2",
    }
    move = Event.objects.get(battle=started.battle, kind="move", data__ship=started.q[0])
    assert move.data["heading"] == 1 and move.data["speed"] == 10


def test_the_deadline_gives_the_missing_side_the_auto_tactics_logged_as_such(started):
    turn_orders_submit(
        user=SYSTEM,
        battle=started.battle,
        side=started.qatzrin_side,
        orders={started.q[0]: {"movement": "+1"}},
    )
    assert turn_play_advance(user=SYSTEM, battle=started.battle) is False  # no deadline: it waits
    TurnPlay.objects.filter(battle=started.battle).update(
        deadline=timezone.now() - timedelta(minutes=1)
    )
    assert turn_play_advance(user=SYSTEM, battle=started.battle) is True
    auto = TurnOrders.objects.get(battle=started.battle, game_turn=1, side=started.phalon_side)
    assert auto.auto and auto.orders == {}
    logged = Event.objects.get(battle=started.battle, kind="auto-orders")
    assert logged.data == {"side": "phalon"} and logged.game_turn == 1 and logged.phase == 1
    # The Phalon ship moved under the tactics of battles.rules.ai (not "keep going").
    order = Event.objects.get(battle=started.battle, kind="orders", data__ship=started.p[0])
    assert order.data["movement"] != "+0"


def test_a_deadline_in_the_past_is_refused_and_changes_nothing(started):
    before = snapshot()
    past = datetime(2020, 1, 1, 10, 0, tzinfo=UTC)
    with pytest.raises(BattleActionError, match=r"deadline: 01/01/2020 10 a\.m\. \(UTC\) is past"):
        turn_deadline_set(user=SYSTEM, battle=started.battle, deadline=past)
    with translation.override("fr"), pytest.raises(BattleActionError) as refused:
        turn_deadline_set(user=SYSTEM, battle=started.battle, deadline=past)
    assert str(refused.value) == (
        "échéance\u202f: 01/01/2020 10:00 (UTC) est passée\u202f; donnez une heure future"
    )
    assert snapshot() == before
    turn_deadline_set(
        user=SYSTEM, battle=started.battle, deadline=timezone.now() + timedelta(hours=1)
    )
    assert TurnPlay.objects.get(battle=started.battle).deadline is not None


@pytest.mark.parametrize(
    ("orders", "message"),
    [
        ("X", "'ship-999999': not a ship of your side in this battle"),
        ("P0", r"'ship-\d+': not a ship of your side in this battle"),
        ("Q0+9", r"Sa'ar 1: order '\+9': speed change \+9 exceeds thrust 6"),
        ("Q0fire", r"Sa'ar 1: no weapon system 'nothing' to fire"),
        ("Q0type", r"Sa'ar 1 \(ship-\d+\)\.withdraw: 'yes', expected true or false"),
        ("Q0mode", r"Sa'ar 1: beam-a \(beam-2\) has no fire mode 'pulser-short'"),
    ],
)
def test_refused_orders_name_the_ship_and_change_nothing(started, orders, message):
    q, p = started.q, started.p
    orders = {
        "P0": {p[0]: {"movement": "+1"}},
        "Q0+9": {q[0]: {"movement": "+9"}},
        "Q0fire": {q[0]: {"fire": [{"system": "nothing", "target": p[0]}]}},
        "Q0type": {q[0]: {"withdraw": "yes"}},
        "X": {"ship-999999": {"movement": "+1"}},
        "Q0mode": {q[0]: {"fire": [{"system": "beam-a", "target": p[0], "mode": "pulser-short"}]}},
    }[orders]
    before = snapshot()
    with pytest.raises(TurnOrdersError, match=message):
        turn_orders_submit(
            user=SYSTEM, battle=started.battle, side=started.qatzrin_side, orders=orders
        )
    assert snapshot() == before


def test_an_order_for_a_destroyed_ship_is_refused_naming_it(cast):
    battle = draft_skirmish(
        cast.campaign, qatzrin=("Ra'am", "Ra'am", "Ra'am"), phalon=("Tsaara", "Silith")
    )
    play = turn_play_start(user=SYSTEM, battle=battle, seed=4, max_turns=20)
    destroyed = None
    for _ in range(6):
        turn_play_advance(user=SYSTEM, battle=battle, force=True)
        play.refresh_from_db()
        assert not play.ended
        state = turn_state(play=play)
        destroyed = next((s for s in state.ships.values() if s.destroyed), None)
        if destroyed:
            break
    assert destroyed is not None, "no ship destroyed in six turns of this seed"
    side = battle.sides.get(faction__slug=destroyed.side)
    before = snapshot()
    with pytest.raises(
        TurnOrdersError, match=rf"{destroyed.name} \({destroyed.ship_id}\): the ship is destroyed"
    ):
        turn_orders_submit(
            user=SYSTEM, battle=battle, side=side, orders={destroyed.ship_id: {"movement": "+1"}}
        )
    assert snapshot() == before


def test_replay_from_seed_and_stored_orders_gives_the_same_log(started):
    q, p = started.q, started.p
    turn_orders_submit(
        user=SYSTEM,
        battle=started.battle,
        side=started.qatzrin_side,
        orders={q[0]: {"movement": "+4, 1B"}, q[1]: {"movement": "+3"}},
    )
    turn_orders_submit(
        user=SYSTEM,
        battle=started.battle,
        side=started.phalon_side,
        orders={p[0]: {"movement": "+2"}},
    )
    # Turn 2: Qatzrin fires at what it can reach; Phalon misses the deadline.
    turn_orders_submit(
        user=SYSTEM,
        battle=started.battle,
        side=started.qatzrin_side,
        orders={q[0]: {"movement": "+2", "fire": [{"system": "beam-a", "target": p[0]}]}},
    )
    turn_play_advance(user=SYSTEM, battle=started.battle, force=True)
    stored = event_rows(battle=started.battle)
    assert [r["kind"] for r in stored].count("initiative") == 2
    assert any(r["kind"] == "roll" for r in stored)
    assert turn_battle_replay(battle=started.battle) == stored

    battle = turn_play_end(user=SYSTEM, battle=started.battle)
    assert battle.status == Battle.Status.CONCLUDED and battle.game_turns == 2
    assert "turn by turn" in battle.outcome
    assert turn_battle_replay(battle=started.battle) == event_rows(battle=started.battle)


def test_the_end_concludes_with_the_final_ship_states(started):
    for _ in range(2):
        turn_play_advance(user=SYSTEM, battle=started.battle, force=True)
    state = turn_state(play=TurnPlay.objects.get(battle=started.battle))
    turn_play_end(user=SYSTEM, battle=started.battle)
    for sid, final in state.ships.items():
        ship = Ship.objects.get(pk=int(sid.removeprefix("ship-")))
        assert (ship.hull_lost, ship.armour_lost, ship.crew_lost) == (
            final.hull_lost,
            final.armour_lost,
            final.crew_lost,
        )
        assert sorted(ship.systems_lost) == sorted(final.systems_lost)
    result = Event.objects.get(battle=started.battle, kind="result")
    assert result.data["reason"] == "ended"
    with pytest.raises(BattleActionError, match="already concluded"):
        turn_orders_submit(user=SYSTEM, battle=started.battle, side=started.qatzrin_side, orders={})
    with pytest.raises(BattleActionError, match="already concluded"):
        turn_play_end(user=SYSTEM, battle=started.battle)


def test_the_turn_cap_concludes_the_battle(duel):
    turn_play_start(user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=1)
    turn_play_advance(user=SYSTEM, battle=duel.battle, force=True)
    duel.battle.refresh_from_db()
    assert duel.battle.status == Battle.Status.CONCLUDED and duel.battle.game_turns == 1
    assert TurnPlay.objects.get(battle=duel.battle).ended


def test_a_pulser_mode_is_chosen_in_the_orders_phase(started):
    p, q = started.p, started.q
    turn_orders_submit(
        user=SYSTEM,
        battle=started.battle,
        side=started.phalon_side,
        orders={p[0]: {"fire": [{"system": "pulser-a", "target": q[0], "mode": "pulser-long"}]}},
    )
    with pytest.raises(
        TurnOrdersError, match=r"Tsaara 1: pulser-a \(pulser\) has no fire mode 'x'"
    ):
        turn_orders_submit(
            user=SYSTEM,
            battle=started.battle,
            side=started.phalon_side,
            orders={p[0]: {"fire": [{"system": "pulser-a", "target": q[0], "mode": "x"}]}},
        )
    turn_play_advance(user=SYSTEM, battle=started.battle, force=True)
    order = Event.objects.get(battle=started.battle, kind="orders", data__ship=p[0])
    assert order.data["fire"] == [
        {"system": "pulser-a", "target": q[0], "mode": "pulser-long", "power_points": None}
    ]
    shot = Event.objects.filter(battle=started.battle, data__ship=p[0], data__system="pulser-a")
    assert shot.filter(kind__in=["fire", "fire-refused"]).exists()


def test_a_reopened_battle_is_fought_again_afresh(started):
    turn_play_end(user=SYSTEM, battle=started.battle)
    Battle.objects.filter(pk=started.battle.pk).update(status=Battle.Status.DRAFT)  # reopened
    play = turn_play_start(user=SYSTEM, battle=started.battle, seed=SEED + 1, max_turns=3)
    assert play.turns_played == 0 and not play.ended
    assert not TurnOrders.objects.filter(battle=started.battle).exists()
    assert TurnPlay.objects.filter(battle=started.battle).count() == 1


def test_the_task_plays_every_turn_past_its_deadline_once(started):
    assert play_due_turns() == []
    TurnPlay.objects.filter(battle=started.battle).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    assert play_due_turns() == [started.battle.pk]
    assert play_due_turns() == []  # the next turn has no deadline yet
    play = TurnPlay.objects.get(battle=started.battle)
    assert play.turns_played == 1 and play.deadline is None
    assert TurnOrders.objects.filter(battle=started.battle, auto=True).count() == 2
