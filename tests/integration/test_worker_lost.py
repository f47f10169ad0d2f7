"""A report task survives a dying worker, on Redis and on RabbitMQ
(``make test-integration`` runs this module once per broker, on PostgreSQL).

- the whole worker is killed (SIGKILL) while it renders: the message was not acknowledged
  (late acks), so the next worker started renders the report — at once on RabbitMQ (the
  connection dropped), after ``visibility_timeout`` on Redis (shortened here to 8 s);
- only the pool child rendering it is killed: ``task_reject_on_worker_lost`` requeues the
  message instead of acknowledging it, and the worker's next child renders the report.

Each test uses its own queue so the session's worker (tests/integration/conftest.py)
cannot take its task.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from battles.models import Battle, Report
from battles.reports.tasks import render_report
from campaign.celery import app
from campaign.league.models import Campaign
from tests.conftest import ROOT
from tests.integration.conftest import _database_url

pytestmark = pytest.mark.integration

# A long narrative makes WeasyPrint take a few seconds: time to kill the worker mid-render.
SLOW_NARRATIVE = "\n\n".join(f"## Turn {i}\n\n" + "The pulsers fire. " * 90 for i in range(55))


def _battle(slug: str):
    campaign, _ = Campaign.objects.get_or_create(slug="it-lost", defaults={"name": "IT lost"})
    return Battle.objects.create(
        campaign=campaign,
        name=f"Killed mid-render {slug}",
        slug=slug,
        narrative=SLOW_NARRATIVE,
        status=Battle.Status.CONCLUDED,
    )


class Worker:
    """A ``celery -A campaign worker`` subprocess consuming ``queue``, logging to a file."""

    def __init__(self, queue: str, log: Path, *, pool: str) -> None:
        from django.conf import settings
        from django.db import connection

        env = {
            **os.environ,
            "DATABASE_URL": _database_url(connection.settings_dict),
            "MEDIA_ROOT": str(settings.MEDIA_ROOT),
            "DJANGO_SETTINGS_MODULE": "campaign.settings",
            "CELERY_VISIBILITY_TIMEOUT": "8",
            "CELERY_UNACKED_RESTORE_INTERVAL": "1",
        }
        self.log = log
        args = ["--pool", pool] + (["--concurrency", "1"] if pool == "prefork" else [])
        with open(log, "w") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "campaign", "worker", *args]
                + ["-Q", queue, "--loglevel", "INFO", "--without-gossip", "--without-mingle"]
                + ["--hostname", f"lost-{uuid.uuid4().hex[:8]}@%h"],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.wait_for("ready.", 60)

    def text(self) -> str:
        return self.log.read_text()

    def wait_for(self, needle: str, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while needle not in self.text():
            if self.proc.poll() is not None:
                pytest.fail(f"worker exited:\n{self.text()}")
            if time.monotonic() > deadline:
                pytest.fail(f"{needle!r} not logged after {seconds} s:\n{self.text()}")
            time.sleep(0.05)

    def children(self) -> list[int]:
        out = subprocess.run(
            ["ps", "-o", "pid=", "--ppid", str(self.proc.pid)], capture_output=True, text=True
        ).stdout
        return [int(pid) for pid in out.split()]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@pytest.fixture
def queue():
    """A queue of this test's own, deleted from the broker afterwards."""
    name = f"lost-{uuid.uuid4().hex[:8]}"
    yield name
    with app.connection_for_write() as conn:
        conn.default_channel.queue_delete(name)


def _wait_for_report(battle, seconds: float, *logs: Worker):
    deadline = time.monotonic() + seconds
    while not Report.objects.filter(battle=battle, format="pdf").exists():
        if time.monotonic() > deadline:
            pytest.fail("no report:\n" + "\n----\n".join(w.text() for w in logs))
        time.sleep(0.25)
    return Report.objects.get(battle=battle, format="pdf")


def test_a_killed_worker_s_report_is_rendered_by_the_next_worker(transactional_db, tmp_path, queue):
    battle = _battle("whole-worker")
    first = Worker(queue, tmp_path / "first.log", pool="solo")
    try:
        render_report.apply_async((battle.pk, "pdf"), queue=queue)
        first.wait_for("Task battles.render_report[", 30)  # solo: it runs at once
        time.sleep(0.5)
        os.kill(first.proc.pid, signal.SIGKILL)
        first.proc.wait(timeout=10)
        assert not Report.objects.filter(battle=battle).exists(), "rendered before the kill"
        assert "succeeded" not in first.text()
    finally:
        first.stop()
    second = Worker(queue, tmp_path / "second.log", pool="solo")
    try:
        report = _wait_for_report(battle, 90, first, second)
        assert Path(report.file.path).read_bytes().startswith(b"%PDF")
        assert "succeeded" in second.text()
    finally:
        second.stop()


def test_a_killed_pool_child_s_report_is_requeued_and_rendered(transactional_db, tmp_path, queue):
    battle = _battle("pool-child")
    worker = Worker(queue, tmp_path / "prefork.log", pool="prefork")
    try:
        render_report.apply_async((battle.pk, "pdf"), queue=queue)
        worker.wait_for("Task battles.render_report[", 30)
        time.sleep(0.5)
        (child,) = worker.children()
        os.kill(child, signal.SIGKILL)
        worker.wait_for("WorkerLostError", 30)
        assert not Report.objects.filter(battle=battle).exists(), "rendered before the kill"
        report = _wait_for_report(battle, 90, worker)
        assert Path(report.file.path).read_bytes().startswith(b"%PDF")
        assert "succeeded" in worker.text()
    finally:
        worker.stop()
