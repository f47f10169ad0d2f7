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


def test_production_settings_pass_check_deploy():
    result = _check_deploy({"DJANGO_SECRET_KEY": "k" * 20 + "x7#Qv9!mZp2@Lr5$Tb8^Wn3&Yc6*Hd0(Jf4"})
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_without_secret_key_fails_loudly():
    result = _check_deploy({})
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


def test_bad_boolean_names_the_variable():
    result = _check_deploy({"DJANGO_DEBUG": "maybe"})
    assert result.returncode != 0
    assert "DJANGO_DEBUG='maybe' is not a boolean" in result.stderr


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
