"""Turn-by-turn play from the stored engine state (battles/play/game_turns.py,
battles/play/engine_state.py): every turn starts from the state the last one stored and
appends its own events, giving exactly the log of the replay from the set-up; the engine
that set the battle up is recorded and another one is refused; a visit of the turn page
never plays a turn."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from battles.models import Battle, Event
from battles.models.turn_orders import TurnPlay
from battles.play import engine_io, engine_state, replay
from battles.play.game_turns import (
    EngineChanged,
    turn_battle_replay,
    turn_orders_submit,
    turn_play_advance,
    turn_play_end,
    turn_play_start,
    turn_state,
)
from battles.play.tasks import play_due_turns
from battles.services import event_rows
from campaign.core.actors import SYSTEM
from factions.models import Ship
from tests.battles.battle_fixtures import SEED, draft_skirmish

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _stored(battle: Battle) -> list[tuple]:
    return list(
        Event.objects.filter(battle=battle)
        .order_by("sequence")
        .values_list("pk", "sequence", "kind", "summary")
    )


def test_turns_from_the_stored_state_log_exactly_what_the_replay_from_the_setup_logs():
    battle = draft_skirmish()  # five ships and a fighter group against three ships
    turn_play_start(user=SYSTEM, battle=battle, seed=SEED, max_turns=6)
    turns = 0
    while not TurnPlay.objects.get(battle=battle).ended:
        turn_play_advance(user=SYSTEM, battle=battle, force=True)  # both sides on the auto tactics
        turns += 1
        # Each turn: the stored log is the replay's, row for row (dice numbered alike).
        assert event_rows(battle=battle) == turn_battle_replay(battle=battle)
    battle.refresh_from_db()
    assert battle.status == Battle.Status.CONCLUDED and battle.game_turns == turns
    stored = event_rows(battle=battle)
    assert stored == turn_battle_replay(battle=battle)
    kinds = [r["kind"] for r in stored]
    assert (kinds.count("initiative"), kinds.count("result")) == (turns, 1)
    rolls = [r["data"]["n"] for r in stored if r["kind"] == "roll"]
    assert rolls == list(range(1, len(rolls) + 1))


def test_a_turn_starts_from_the_stored_state_and_appends_its_own_events(duel, monkeypatch):
    turn_play_start(user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=5)
    turn_play_advance(user=SYSTEM, battle=duel.battle, force=True)
    after_one = _stored(duel.battle)
    play = TurnPlay.objects.get(battle=duel.battle)
    assert play.state["format"] == engine_state.FORMAT
    assert play.engine_hash == engine_state.engine_hash()

    def no_replay(*args, **kwargs):
        raise AssertionError("the battle was replayed from its set-up")

    monkeypatch.setattr(replay, "rebuild", no_replay)
    turn_play_advance(user=SYSTEM, battle=duel.battle, force=True)
    after_two = _stored(duel.battle)
    # Turn 1's rows are the same rows (same ids), turn 2's follow them.
    assert after_two[: len(after_one)] == after_one
    assert len(after_two) > len(after_one)
    assert [s for _, s, _, _ in after_two] == list(range(1, len(after_two) + 1))
    new_turns = Event.objects.filter(pk__gt=after_one[-1][0]).values_list("game_turn", flat=True)
    assert set(new_turns) == {2}
    assert TurnPlay.objects.get(battle=duel.battle).turns_played == 2
    monkeypatch.undo()
    assert event_rows(battle=duel.battle) == turn_battle_replay(battle=duel.battle)


def test_a_play_without_stored_state_is_replayed_once_then_goes_on_from_its_state(duel):
    turn_play_start(user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=6)
    q = f"ship-{duel.qatzrin_side.participants.filter(ship__isnull=False).first().ship_id}"
    turn_orders_submit(
        user=SYSTEM, battle=duel.battle, side=duel.qatzrin_side, orders={q: {"movement": "+3"}}
    )
    turn_play_advance(user=SYSTEM, battle=duel.battle, force=True)
    turn_play_advance(user=SYSTEM, battle=duel.battle, force=True)
    # As the migration leaves a play begun before states were stored: no state.
    TurnPlay.objects.filter(battle=duel.battle).update(state=None)
    turn_play_advance(user=SYSTEM, battle=duel.battle, force=True)
    assert TurnPlay.objects.get(battle=duel.battle).state is not None
    assert event_rows(battle=duel.battle) == turn_battle_replay(battle=duel.battle)
    turn_play_advance(user=SYSTEM, battle=duel.battle, force=True)
    assert event_rows(battle=duel.battle) == turn_battle_replay(battle=duel.battle)
    turn_play_end(user=SYSTEM, battle=duel.battle)
    assert event_rows(battle=duel.battle) == turn_battle_replay(battle=duel.battle)


def test_the_stored_state_is_the_replayed_state(duel):
    turn_play_start(user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=6)
    for _ in range(3):
        turn_play_advance(user=SYSTEM, battle=duel.battle, force=True)
    play = TurnPlay.objects.get(battle=duel.battle)
    loaded = turn_state(play=play)
    replayed = replay.replayed(play)
    assert loaded.ships == replayed.ships
    assert loaded.light_units == replayed.light_units
    assert (loaded.turn, loaded.contacts, loaded.known_classes) == (
        replayed.turn,
        replayed.contacts,
        replayed.known_classes,
    )
    assert loaded.dice._rng.getstate() == replayed.dice._rng.getstate()


def test_another_engine_than_the_setups_is_refused_clearly(duel, caplog):
    turn_play_start(user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=5)
    TurnPlay.objects.filter(battle=duel.battle).update(engine_hash="ab" * 32)
    now = engine_state.engine_hash()[:12]
    expected = (
        f"battle {duel.battle.pk} (Skirmish skirmish) was set up with another version of the "
        f"rules engine (abababababab; this one is {now}): its turns cannot be played on. "
        "The organiser may end the battle as it stands"
    )
    with pytest.raises(EngineChanged) as refused:
        turn_play_advance(user=SYSTEM, battle=duel.battle, force=True)
    assert str(refused.value) == expected
    with pytest.raises(EngineChanged):
        turn_orders_submit(user=SYSTEM, battle=duel.battle, side=duel.qatzrin_side, orders={})
    # The page and the API say so, and play nothing.
    organiser = Client()
    organiser.force_login(duel.cast.organiser)
    page = organiser.post(
        f"/battles/{duel.battle.pk}/turns/play/", {"confirm": "yes"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert page.status_code == 400 and expected in page.content.decode()
    api = organiser.post(
        f"/api/battles/{duel.battle.pk}/turns/play",
        {},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert (api.status_code, api.json()) == (400, {"detail": expected})
    # The scheduled task logs it and goes on (no exception out of the beat loop).
    TurnPlay.objects.filter(battle=duel.battle).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    with caplog.at_level(logging.WARNING, logger="battles.play.game_turns"):
        assert play_due_turns() == []
    assert expected in caplog.text
    play = TurnPlay.objects.get(battle=duel.battle)
    assert play.turns_played == 0 and not Event.objects.filter(battle=duel.battle, game_turn=1)
    # The organiser may still end it, judged as it stands.
    battle = turn_play_end(user=SYSTEM, battle=duel.battle)
    assert battle.status == Battle.Status.CONCLUDED


def test_the_page_after_the_deadline_shows_the_turn_without_playing_it(duel):
    turn_play_start(user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=5)
    TurnPlay.objects.filter(battle=duel.battle).update(
        deadline=timezone.now() - timedelta(minutes=1)
    )
    before = _stored(duel.battle)
    client = Client()
    client.force_login(duel.cast.organiser)
    response = client.get(f"/battles/{duel.battle.pk}/turns/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "The deadline has passed: the scheduler plays this turn within the minute." in (
        response.content.decode()
    )
    play = TurnPlay.objects.get(battle=duel.battle)
    assert (play.turns_played, play.deadline is not None) == (0, True)
    assert _stored(duel.battle) == before
    assert Ship.objects.filter(status="damaged").count() == 0
    # The scheduled task plays it.
    assert play_due_turns() == [duel.battle.pk]
    assert TurnPlay.objects.get(battle=duel.battle).turns_played == 1


def test_a_die_rolled_after_the_last_event_is_stored_with_the_next_one(duel):
    turn_play_start(user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=5)
    state, base = engine_state.load(TurnPlay.objects.get(battle=duel.battle).state)
    assert base == 0 and state.dice.rolled == 0
    state.log(0, "note", "a first event")
    face = state.dice.d6("a die after it")
    document = engine_state.dump(state, 7)
    assert (document["dice"]["n"], document["dice"]["pending"]) == (
        7,
        [["a die after it", 6, face]],
    )
    assert [r["kind"] for r in engine_io.turn_rows(state, 7)] == ["note"]  # held back
    resumed, base = engine_state.load(document)
    assert base == 7
    resumed.log(1, "note", "the next event")
    rows = engine_io.turn_rows(resumed, base)
    assert [(r["kind"], r["game_turn"], r["phase"]) for r in rows] == [
        ("roll", 0, 1),
        ("note", 0, 1),
    ]
    assert rows[0]["data"] == {"n": 8, "purpose": "a die after it", "sides": 6, "result": face}
