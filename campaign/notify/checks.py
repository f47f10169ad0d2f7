"""System checks of the notifications: a deploy must not let webhooks reach private
addresses (``NOTIFY_ALLOW_PRIVATE_WEBHOOKS`` is for the tests' local receiver)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, Tags, register


@register(Tags.security, deploy=True)
def private_webhooks_off(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """notify.E001 under ``check --deploy`` when ``NOTIFY_ALLOW_PRIVATE_WEBHOOKS`` is on."""
    if getattr(settings, "NOTIFY_ALLOW_PRIVATE_WEBHOOKS", False):
        return [
            Error(
                "NOTIFY_ALLOW_PRIVATE_WEBHOOKS is on: webhooks may post to loopback and "
                "private addresses",
                hint="Leave it off outside the tests.",
                id="notify.E001",
            )
        ]
    return []
