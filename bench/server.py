"""A production-settings server for bench and tests: ``DJANGO_DEBUG=0``, gunicorn, whitenoise,
a fresh SQLite database and media folder (used by ``make bench`` and the production
tests in tests/campaign/test_production.py).
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def production_env(workdir: Path) -> dict[str, str]:
    """Environment of a production-settings process whose files all live in ``workdir``."""
    return {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(48),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "0",  # plain http on loopback; a proxy does TLS
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
        "STATIC_ROOT": str(workdir / "static"),
        "MEDIA_ROOT": str(workdir / "media"),
        "DJANGO_SETTINGS_MODULE": "campaign.settings",
        "CELERY_BROKER_URL": "",
        "CELERY_TASK_ALWAYS_EAGER": "1",  # no worker in a trial: chosen, as production asks
        "DJANGO_STATIC_COMPRESS": "0",  # brotli on the Swagger bundle takes minutes
    }


def manage(env: dict[str, str], *args: str) -> str:
    """Run ``manage.py *args`` with ``env``; return its output (raises on failure)."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


@contextmanager
def production_server(
    workdir: Path,
    *,
    setup: str = "",
    workers: int = 2,
    port: int = 0,
    extra_env: dict[str, str] | None = None,
) -> Iterator[str]:
    """Migrate, collect static files, run the Python ``setup`` code (``manage.py shell``),
    then serve with gunicorn (``workers`` processes) on 127.0.0.1:``port`` (0: any free
    port), with ``extra_env`` added to :func:`production_env`. Yields the base URL
    (``http://127.0.0.1:PORT``); stops the server after."""
    workdir.mkdir(parents=True, exist_ok=True)
    env = {**production_env(workdir), **(extra_env or {})}
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    if setup:
        manage(env, "shell", "-c", setup)
    log_path = workdir / "gunicorn.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "campaign.wsgi", "--workers", str(workers)]
            + ["--bind", f"127.0.0.1:{port}", "--access-logfile", "-"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            found = re.search(r"Listening at: (http://127\.0\.0\.1:\d+)", log_path.read_text())
            booted = log_path.read_text().count("Booting worker") >= workers
            if found and booted:
                break
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not start:\n{log_path.read_text()}")
            time.sleep(0.1)
        time.sleep(0.5)  # workers import the app after "Booting worker"
        yield found.group(1)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
