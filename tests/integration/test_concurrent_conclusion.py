"""Concluding battles at the same moment on PostgreSQL:
two processes, and two threads, each on its own connection. Ship rows are locked
(``select_for_update``, pk order): the second conclusion waits, re-reads, and is refused
with the ship named; the same battle concludes once.

Run with ``make test-integration`` (PostgreSQL); ``make test`` runs it when CI=true.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.db import connection

from battles.models import Battle, Participant
from battles.services import BattleActionError, battle_resolve
from campaign.core.actors import SYSTEM
from campaign.league.models import Campaign
from factions.models import Ship
from tests.battles.battle_fixtures import draft_skirmish
from tests.conftest import ROOT
from tests.integration.conftest import _database_url as url

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _database_url() -> str:
    return url(connection.settings_dict)


def _shared_battles() -> tuple[Battle, Battle]:
    """Two draft battles in different campaigns fielding the same ships."""
    first = draft_skirmish(
        Campaign.objects.create(slug="one", name="One"),
        slug="one",
        qatzrin=("Ra'am",),
        phalon=("Huulth",),
    )
    second = Battle.objects.create(
        campaign=Campaign.objects.create(slug="two", name="Two"), name="Two", slug="two"
    )
    second.campaign.factions.add(*first.campaign.factions.all())
    for side in first.sides.all():
        s2 = second.sides.create(faction=side.faction, order=side.order)
        for p in side.participants.filter(ship__isnull=False):
            Participant.objects.create(side=s2, ship=p.ship)
    return first, second


def _run_processes(tmp_path: Path, battle_ids: list[int]) -> list[str]:
    if connection.vendor != "postgresql":
        pytest.fail("this test needs DATABASE_URL to point at PostgreSQL")
    go = tmp_path / "go"
    env = {**os.environ, "DATABASE_URL": _database_url(), "PYTHONPATH": str(ROOT)}
    procs, outs = [], []
    for i, battle_id in enumerate(battle_ids):
        out = tmp_path / f"out-{i}"
        outs.append(out)
        hold = "2" if i == 0 else "0"
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "tests.integration.conclude_worker", str(battle_id),
                 hold, str(go), str(out)],
                cwd=ROOT,
                env=env,
            )
        )  # fmt: skip
    time.sleep(3)  # both processes set up and waiting
    go.touch()
    for proc in procs:
        assert proc.wait(timeout=120) == 0
    return [out.read_text("utf-8") for out in outs]


def test_two_processes_concluding_battles_that_share_ships(tmp_path):
    first, second = _shared_battles()
    results = _run_processes(tmp_path, [first.pk, second.pk])
    assert results.count("concluded") == 1, results
    refusal = next(r for r in results if r != "concluded")
    # In the default language (French): the participant and the ship named.
    assert "participant" in refusal and "le vaisseau est retenu" in refusal, refusal
    assert sorted(Battle.objects.values_list("status", flat=True)) == ["concluded", "draft"]
    # The ships carry the damage of exactly one battle.
    winner = Battle.objects.get(status="concluded")
    for p in Participant.objects.filter(side__battle=winner, ship__isnull=False):
        ship = Ship.objects.get(pk=p.ship_id)
        assert ship.hull_lost == p.hull_lost


def test_two_processes_concluding_the_same_battle(tmp_path):
    first, _second = _shared_battles()
    results = _run_processes(tmp_path, [first.pk, first.pk])
    assert results.count("concluded") == 1, results
    assert any("déjà conclue" in r for r in results), results  # French, the default


def test_two_threads_two_connections_conclude_the_same_battle_once():
    from django.db import connections

    first, _second = _shared_battles()
    barrier = threading.Barrier(2)
    results: list[str] = []

    def conclude() -> None:
        try:
            barrier.wait()
            battle_resolve(
                user=SYSTEM, battle=Battle.objects.get(pk=first.pk), seed=11, max_turns=3
            )
            results.append("concluded")
        except BattleActionError as exc:
            results.append(f"refused: {exc}")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=conclude) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert sorted(r.split(":")[0] for r in results) == ["concluded", "refused"], results
