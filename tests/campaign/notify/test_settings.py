"""``NOTIFY_ALLOW_PRIVATE_WEBHOOKS`` is for the tests' local receiver: production settings
refuse it, and ``check --deploy`` flags it (notify.E001)."""

import subprocess
import sys

from django.conf import settings

from campaign.notify.checks import private_webhooks_off
from tests.campaign.test_settings import SECRET
from tests.conftest import ROOT


def test_it_is_off_by_default():
    assert settings.NOTIFY_ALLOW_PRIVATE_WEBHOOKS is False


def test_production_settings_refuse_it():
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": SECRET,
        "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
        "NOTIFY_ALLOW_PRIVATE_WEBHOOKS": "1",
    }
    result = subprocess.run(
        [sys.executable, "-c", "import campaign.settings"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "NOTIFY_ALLOW_PRIVATE_WEBHOOKS must not be set when DJANGO_DEBUG=0" in result.stderr


def test_check_deploy_flags_it(settings):
    assert private_webhooks_off() == []
    settings.NOTIFY_ALLOW_PRIVATE_WEBHOOKS = True
    (error,) = private_webhooks_off()
    assert error.id == "notify.E001"
