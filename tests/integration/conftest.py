"""Fixtures for the integration tests: a real Celery worker on a real broker, sharing the
test database (PostgreSQL in CI) with the test process.

Run with ``make test-integration`` (which sets DATABASE_URL, CELERY_BROKER_URL and
ADMIRALTY_INTEGRATION=1); ``make test`` runs it when CI=true.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT


def _database_url(settings_dict: dict) -> str:
    user = settings_dict.get("USER") or ""
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker, tmp_path_factory):
    """Start ``celery -A campaign worker`` against the test database; stop it afterwards.

    Yields the worker's MEDIA_ROOT (the folder both processes write reports to).
    """
    from django.conf import settings
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.fail("integration tests need DATABASE_URL to point at PostgreSQL")
    if settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.fail("integration tests need CELERY_BROKER_URL")

    media = Path(settings.MEDIA_ROOT)
    log_path = tmp_path_factory.mktemp("worker") / "worker.log"
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(connection.settings_dict),
        "MEDIA_ROOT": str(media),
        "DJANGO_SETTINGS_MODULE": "campaign.settings",
    }
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "campaign",
                "worker",
                "--pool",
                "solo",
                "--loglevel",
                "INFO",
                "--hostname",
                f"admiralty-test-{os.getpid()}@%h",
                "--without-gossip",
                "--without-mingle",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                pytest.fail(f"Celery worker exited early:\n{log_path.read_text()}")
            if "ready." in log_path.read_text():
                break
            time.sleep(0.5)
        else:
            pytest.fail(f"Celery worker not ready after 60 s:\n{log_path.read_text()}")
        yield {"media_root": media, "log": log_path}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
