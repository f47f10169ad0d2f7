"""Both sides' orders arriving at once on PostgreSQL (two threads, two connections): the
turn is played exactly once, with both sides' orders (the battle row is locked while
orders are stored and the turn played)."""

import contextlib
import threading

import pytest
from django.db import connection

from battles.models import Event
from battles.models.turn_orders import TurnOrders, TurnPlay
from battles.play import game_turns as play
from battles.play.game_turns import turn_orders_submit, turn_play_start
from campaign.core.actors import SYSTEM
from tests.battles.battle_fixtures import SEED, make_duel

pytestmark = pytest.mark.integration


def test_simultaneous_orders_play_the_turn_once(
    transactional_db, cast, django_user_model, monkeypatch
):
    if connection.vendor != "postgresql":
        pytest.fail("integration tests need DATABASE_URL to point at PostgreSQL")
    duel = make_duel(cast, django_user_model)
    turn_play_start(user=SYSTEM, battle=duel.battle, seed=SEED, max_turns=5)
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []
    # Widen the race: each thread, its orders stored, waits for the other before it looks
    # whether both sides' orders are in. With the locks the second thread is still
    # waiting for the battle row, so the first gives up waiting after 2 s and goes on;
    # without them both look at once, neither sees the other's uncommitted orders, and
    # the turn is never played (tried: this test then fails).
    meeting = threading.Barrier(2, timeout=2)
    advance = play._advance

    def slow_advance(*args, **kwargs):
        with contextlib.suppress(threading.BrokenBarrierError):
            meeting.wait()
        return advance(*args, **kwargs)

    monkeypatch.setattr(play, "_advance", slow_advance)

    def submit(side) -> None:
        try:
            barrier.wait()
            turn_orders_submit(user=SYSTEM, battle=duel.battle, side=side, orders={})
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=submit, args=(side,))
        for side in (duel.qatzrin_side, duel.phalon_side)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert TurnPlay.objects.get(battle=duel.battle).turns_played == 1
    assert TurnOrders.objects.filter(battle=duel.battle, game_turn=1, auto=False).count() == 2
    assert Event.objects.filter(battle=duel.battle, kind="initiative").count() == 1
