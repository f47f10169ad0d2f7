"""A user's own notification settings: which kinds they are e-mailed, in which language.

Every kind is on until the user turns it off (``campaign.notify.models``); the language is
the campaign's until they choose one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from campaign.core.refusals import Kind as RefusalKind
from campaign.core.refusals import Refused
from campaign.notify.models import Kind, NotificationPreference, NotificationProfile


@dataclass(frozen=True)
class Preferences:
    """``email``: kind -> e-mailed (every kind, in :class:`Kind` order); ``language``: a
    code of ``settings.LANGUAGES`` or "" (each campaign's)."""

    email: dict[str, bool]
    language: str


def preferences_of(user: Any) -> Preferences:
    """``user``'s settings (two queries)."""
    off = dict(NotificationPreference.objects.filter(user=user).values_list("kind", "email"))
    profile = NotificationProfile.objects.filter(user=user).first()
    return Preferences(
        email={k.value: off.get(k.value, True) for k in Kind},
        language=profile.language if profile else "",
    )


def preferences_set(*, user: Any, email: Mapping[str, object], language: str = "") -> Preferences:
    """Set ``user``'s settings: ``email`` maps kinds to booleans (a kind left out is left
    as it is); ``language`` "" or a code of ``settings.LANGUAGES``. Raises
    :class:`~campaign.core.refusals.Refused` (422) naming the field for an unknown kind, a
    value that is not a boolean or an unknown language; nothing is written then."""
    known = {k.value for k in Kind}
    errors: list[tuple[str, str]] = []
    for kind, value in email.items():
        if kind not in known:
            errors.append((f"email.{kind}", _("unknown kind of notification")))
        elif not isinstance(value, bool):
            errors.append((f"email.{kind}", _("expected true or false")))
    if language not in {"", *(code for code, _name in settings.LANGUAGES)}:
        errors.append(("language", _("unknown language %(value)r") % {"value": language}))
    if errors:
        raise Refused(
            "; ".join(f"{f}: {m}" for f, m in errors), kind=RefusalKind.INVALID, errors=errors
        )
    with transaction.atomic():
        for kind, value in email.items():
            NotificationPreference.objects.update_or_create(
                user=user, kind=kind, defaults={"email": value}
            )
        NotificationProfile.objects.update_or_create(user=user, defaults={"language": language})
    return preferences_of(user)
