import subprocess
import sys

from tests.conftest import ROOT


def _check_deploy(env_extra: dict[str, str]) -> subprocess.CompletedProcess:
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_DEBUG": "0",
        "DJANGO_ALLOWED_HOSTS": "admiralty.example",
        **env_extra,
    }
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


SECRET = "k" * 20 + "x7#Qv9!mZp2@Lr5$Tb8^Wn3&Yc6*Hd0(Jf4"


def test_production_settings_pass_check_deploy():
    result = _check_deploy(
        {"DJANGO_SECRET_KEY": SECRET, "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0"}
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_without_secret_key_fails_loudly():
    result = _check_deploy({})
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


def test_bad_boolean_names_the_variable():
    result = _check_deploy({"DJANGO_DEBUG": "maybe"})
    assert result.returncode != 0
    assert "DJANGO_DEBUG='maybe' is not a boolean" in result.stderr


def _celery_settings(env_extra: dict[str, str]) -> subprocess.CompletedProcess:
    """Import the settings in a fresh process with production settings and ``env_extra``;
    its output is ``<eager> <broker>``."""
    env = {"PATH": "/usr/bin:/bin", "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": SECRET, **env_extra}
    code = "import campaign.settings as s; print(s.CELERY_TASK_ALWAYS_EAGER, s.CELERY_BROKER_URL)"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_production_without_broker_or_chosen_eager_mode_refuses_to_start():
    result = _celery_settings({})
    assert result.returncode != 0
    assert (
        "ImproperlyConfigured: CELERY_BROKER_URL is not set and CELERY_TASK_ALWAYS_EAGER is "
        "not 1: set CELERY_BROKER_URL (redis://… or amqp://…) and run a Celery worker, or set "
        "CELERY_TASK_ALWAYS_EAGER=1 to run tasks inside the web process"
    ) in result.stderr
    # Choosing "not eager" without a broker is refused too: the tasks would never run.
    assert _celery_settings({"CELERY_TASK_ALWAYS_EAGER": "0"}).returncode != 0


def test_production_with_eager_mode_chosen_starts_eager():
    result = _celery_settings({"CELERY_TASK_ALWAYS_EAGER": "1"})
    assert result.returncode == 0, result.stderr
    assert result.stdout == "True memory://localhost/\n"


def test_production_with_a_broker_is_not_eager():
    result = _celery_settings({"CELERY_BROKER_URL": "redis://127.0.0.1:6379/0"})
    assert result.returncode == 0, result.stderr
    assert result.stdout == "False redis://127.0.0.1:6379/0\n"


def test_development_without_a_broker_stays_eager():
    result = _celery_settings({"DJANGO_DEBUG": "1"})
    assert result.returncode == 0, result.stderr
    assert result.stdout == "True memory://localhost/\n"


def test_defaults_are_sqlite_and_eager_celery(settings):
    import os

    from django.conf import settings as live

    if not os.environ.get("CELERY_BROKER_URL"):
        assert live.CELERY_TASK_ALWAYS_EAGER is True
        assert live.CELERY_BROKER_URL == "memory://localhost/"
    else:
        assert live.CELERY_TASK_ALWAYS_EAGER is False
    assert live.USE_TZ is True and live.TIME_ZONE == "UTC"
    assert live.LANGUAGE_CODE == "fr"
