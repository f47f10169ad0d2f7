"""Turn-by-turn play on the battle services (battles.services): the other ways of
concluding refuse a battle being fought turn by turn, the timeline records each step (not
the orders' content), the conclusion goes through battle_conclude (mode, snapshot,
reopen), the replay and ``resolve_battle --check`` rebuild it from its orders, station
defences stand still, and the cron command plays turns past their deadline."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.forms.models import model_to_dict
from django.utils import timezone

from battles.models import Battle, BattleAction, BattleSnapshot, Event, Participant, RecordEntry
from battles.models.turn_orders import TurnOrders, TurnPlay
from battles.play.game_turns import (
    turn_orders_submit,
    turn_play_advance,
    turn_play_end,
    turn_play_start,
    turn_state,
)
from battles.services import (
    BattleActionError,
    battle_record,
    battle_reopen,
    battle_replay,
    battle_resolve,
    battle_resolve_preview,
    event_rows,
    record_confirm,
    record_submit,
)
from campaign.core.actors import SYSTEM
from factions.models import LightUnitGroup, Ship, Territory
from tests.battles.battle_fixtures import SEED, draft_skirmish, ship_class

# These tests read the services' English messages (the French ones are the catalogue's; pages and
# API requests follow their own Accept-Language).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def rows() -> dict:
    out = {}
    for model in (Battle, Participant, Event, Ship, LightUnitGroup, RecordEntry):
        for obj in model.objects.order_by("pk"):
            out[(model.__name__, obj.pk)] = model_to_dict(obj)
    return out


def first_ship(duel, slug: str) -> str:
    p = Participant.objects.filter(
        side__battle=duel.battle, side__faction__slug=slug, ship__isnull=False
    ).order_by("pk")[0]
    return f"ship-{p.ship_id}"


@pytest.fixture
def started(duel):
    turn_play_start(battle=duel.battle, user=duel.cast.organiser, seed=SEED, max_turns=5)
    return duel


def test_resolve_preview_and_record_refuse_an_unfinished_play(started):
    battle = started.battle
    before = rows()
    part = Participant.objects.filter(side=started.qatzrin_side).first()
    entry = {"participant": part.pk, "fate": "unharmed"}
    msg = rf"battle {battle.pk} \({battle.name}\) is being fought turn by turn \(turn 1 of"
    with pytest.raises(BattleActionError, match=msg):
        battle_resolve(user=SYSTEM, battle=battle, seed=1)
    with pytest.raises(BattleActionError, match=msg):
        battle_resolve_preview(battle=battle, seed=1)
    with pytest.raises(BattleActionError, match=msg):
        battle_record(user=SYSTEM, battle=battle, results=[entry], outcome="x", winner=None)
    with pytest.raises(BattleActionError, match=msg):
        record_submit(battle=battle, side=None, results=[entry], user=started.cast.organiser)
    assert rows() == before


def test_an_entry_submitted_before_the_play_cannot_be_confirmed_during_it(duel):
    part = Participant.objects.filter(side=duel.qatzrin_side).first()
    entry = record_submit(
        battle=duel.battle,
        side=None,
        results=[{"participant": part.pk, "fate": "unharmed"}],
        user=duel.cast.organiser,
    )
    turn_play_start(user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=5)
    with pytest.raises(BattleActionError, match="is being fought turn by turn"):
        record_confirm(entry=entry, user=duel.cast.organiser)
    entry.refresh_from_db()
    assert entry.status == RecordEntry.Status.SUBMITTED


def test_the_timeline_records_each_step_but_never_the_orders(started):
    battle, q = started.battle, first_ship(started, "qatzrin")
    turn_orders_submit(
        battle=battle,
        side=started.qatzrin_side,
        orders={q: {"movement": "+3, 1B"}},
        user=started.cast.qatzrin_player,
    )
    turn_play_advance(battle=battle, force=True, user=started.cast.organiser)
    turn_play_end(battle=battle, user=started.cast.organiser)
    actions = list(BattleAction.objects.filter(battle=battle).order_by("at", "pk"))
    assert [(a.kind, a.summary) for a in actions] == [
        ("order", f"turn-by-turn play started (seed {SEED}, at most 5 turns)"),
        ("order", "Qatzrin: orders for turn 1 submitted"),  # faction names, never slugs
        ("order", "turn 1 played (auto-resolve tactics for Phalon)"),
        ("order", "turn-by-turn play ended after 1 turn (ended by the organiser)"),
        ("conclude", Battle.objects.get(pk=battle.pk).outcome),
    ]
    assert actions[3].summary_message == {
        "key": "battle.play_ended",
        "params": {"n": 1, "reason": "ended"},
    }
    assert actions[1].user == started.cast.qatzrin_player
    assert actions[1].data == {"side": "qatzrin", "game_turn": 1}
    assert "+3" not in str([(a.summary, a.data) for a in actions])


def test_the_end_concludes_through_battle_conclude_and_reopen_restores(started):
    battle = started.battle
    ships_before = [model_to_dict(s) for s in Ship.objects.order_by("pk")]
    for _ in range(3):
        turn_play_advance(user=SYSTEM, battle=battle, force=True)
    final = turn_state(play=TurnPlay.objects.get(battle=battle))
    concluded = turn_play_end(battle=battle, user=started.cast.organiser)
    assert concluded.status == Battle.Status.CONCLUDED
    assert concluded.mode == Battle.Mode.TURNS
    assert concluded.game_turns == 3 and concluded.seed == SEED
    assert "Played turn by turn from both sides' orders (seed" in concluded.outcome
    assert BattleSnapshot.objects.filter(battle=battle).exists()
    for sid, state in final.ships.items():
        if sid.startswith("ship-"):
            ship = Ship.objects.get(pk=int(sid.removeprefix("ship-")))
            assert (ship.hull_lost, ship.armour_lost) == (state.hull_lost, state.armour_lost)
    # The stored log (written by battle_conclude) is what the services' replay gives.
    assert battle_replay(battle=battle) == event_rows(battle=battle)
    out = StringIO()
    call_command("resolve_battle", str(battle.pk), "--check", stdout=out)

    battle_reopen(battle=battle, user=started.cast.organiser, reason="replay it")
    assert [model_to_dict(s) for s in Ship.objects.order_by("pk")] == ships_before
    assert Battle.objects.get(pk=battle.pk).status == Battle.Status.DRAFT
    # The ended play does not block the other ways of concluding...
    battle_resolve_preview(battle=battle, seed=1)
    # ...and a new play discards the old one and its orders.
    play = turn_play_start(user=SYSTEM, battle=battle, seed=SEED + 1, max_turns=2)
    assert play.turns_played == 0 and not TurnOrders.objects.filter(battle=battle).exists()
    assert TurnPlay.objects.filter(battle=battle).count() == 1
    restart = BattleAction.objects.filter(battle=battle, kind="order").last()
    assert restart.data["restarted"] is True


def test_station_defences_stand_still_in_turn_by_turn_play(cast):
    battle = draft_skirmish(cast.campaign, qatzrin=("Sa'ar",), phalon=("Huulth",), slug="petra")
    phalon = battle.sides.get(faction__slug="phalon")
    territory = Territory.objects.create(faction=phalon.faction, name="Petra IV", slug="petra-iv")
    battery = LightUnitGroup.objects.create(
        name="Petra battery",
        kind="battery",
        unit_type="beam-2",
        faction=phalon.faction,
        territory=territory,
        size=2,
        strength=2,
    )
    Participant.objects.create(side=phalon, light_units=battery)
    play = turn_play_start(user=SYSTEM, battle=battle, seed=SEED, max_turns=3)
    platform = f"lu-{battery.pk}"
    assert platform in play.setup["data"]["fixed"]
    start = turn_state(play=play).ships[platform]
    assert start.speed == 0
    turn_play_advance(user=SYSTEM, battle=battle, force=True)
    after = turn_state(play=TurnPlay.objects.get(battle=battle)).ships[platform]
    assert (after.x, after.y, after.speed) == (start.x, start.y, 0)


def test_the_cron_command_plays_turns_past_their_deadline(started):
    TurnPlay.objects.filter(battle=started.battle).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    out = StringIO()
    call_command("play_due_turns", stdout=out)
    assert out.getvalue().splitlines() == [
        f"played the current turn of battle {started.battle.pk}",
        "1 turn(s) played",
    ]
    assert TurnPlay.objects.get(battle=started.battle).turns_played == 1


def test_the_resolve_page_names_the_play_instead_of_a_preview(client, started):
    client.force_login(started.cast.organiser)
    page = client.get(f"/battles/{started.battle.pk}/resolve/")
    assert page.status_code == 200
    assert page.context["preview"] is None
    assert "est jouée tour par tour (tour 1 sur" in page.context["error"]
    page = client.post(
        f"/battles/{started.battle.pk}/resolve/",
        {"action": "conclude", "seed": str(SEED)},
        follow=True,
    )
    assert Battle.objects.get(pk=started.battle.pk).status == Battle.Status.DRAFT
    assert any("est jouée tour par tour" in str(m) for m in page.context["messages"])


def test_a_unit_added_after_the_start_is_named_and_nothing_concludes(started):
    phalon = started.phalon_side
    extra = Ship.objects.create(
        ship_class=ship_class(phalon.faction, "Huulth"), fleet=phalon.fleet, name="Latecomer"
    )
    Participant.objects.create(side=phalon, ship=extra)
    with pytest.raises(BattleActionError, match="Latecomer joined the battle after"):
        turn_play_end(user=SYSTEM, battle=started.battle)
    assert Battle.objects.get(pk=started.battle.pk).status == Battle.Status.DRAFT
    assert not TurnPlay.objects.get(battle=started.battle).ended


def test_the_battle_page_offers_the_turn_page_not_resolve_or_record_during_a_play(client, started):
    client.force_login(started.cast.organiser)
    battle = started.battle
    html = client.get(f"/battles/{battle.pk}/").content.decode()
    assert f"/battles/{battle.pk}/turns/" in html
    assert f"/battles/{battle.pk}/resolve/" not in html
    assert f"/battles/{battle.pk}/record/" not in html
