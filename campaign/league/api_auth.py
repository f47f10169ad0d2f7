"""How API callers authenticate: the ONE auth object every write endpoint uses.

``api_auth`` accepts, in this order:

1. a personal API token, ``Authorization: Bearer adm_…`` (scripts; no CSRF token needed
   since no cookie is involved), created and revoked on ``/account/``;
2. the Django session cookie (the site's pages and ``/api/docs``), which also checks
   the CSRF token (``X-CSRFToken`` header; the docs page sends it).

Without either the endpoint answers 401. Both set ``request.user`` so handlers check
permissions with the ``access`` helpers the same way. Usage::

    from campaign.league.api_auth import api_auth

    @router.post("/things", auth=api_auth)

Source: django-ninja "Authentication" (https://django-ninja.dev/guides/authentication/).
"""

from __future__ import annotations

import hashlib
import secrets
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from ninja.security import HttpBearer, SessionAuth

from campaign.league.models import ApiToken

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

TOKEN_PREFIX = "adm_"  # noqa: S105 - a marker, not a secret
# Writing last_used_at on every call would make each read a write; once a minute is enough.
LAST_USED_RESOLUTION_S = 60


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def api_token_create(*, user: AbstractBaseUser, name: str) -> tuple[ApiToken, str]:
    """Create a token for ``user``; returns (row, token). The token (``adm_`` + 43
    url-safe characters) is returned only here: only its SHA-256 is stored."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    row = ApiToken.objects.create(
        user=user, name=name.strip()[:100], prefix=token[:12], key_hash=_hash(token)
    )
    return row, token


def api_token_revoke(*, user: AbstractBaseUser, token_id: int) -> bool:
    """Delete ``user``'s token ``token_id``; False if it is not theirs or not found."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return bool(deleted)


def api_token_user(*, token: str) -> AbstractBaseUser | None:
    """The active user owning ``token``, or None (unknown/revoked token, inactive user)."""
    if not token.startswith(TOKEN_PREFIX) or len(token) > 200:
        return None
    row = ApiToken.objects.select_related("user").filter(key_hash=_hash(token)).first()
    if row is None or not row.user.is_active:
        return None
    now = timezone.now()
    if (
        row.last_used_at is None
        or (now - row.last_used_at).total_seconds() > LAST_USED_RESOLUTION_S
    ):
        with transaction.atomic():
            ApiToken.objects.filter(pk=row.pk).update(last_used_at=now)
    return row.user


class ApiTokenAuth(HttpBearer):
    """``Authorization: Bearer <token>`` with a personal token (see module docstring)."""

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        user = api_token_user(token=token)
        if user is not None:
            request.user = user
        return user


class SessionCsrfAuth(SessionAuth):
    """The session cookie, its CSRF token checked only for a logged-in user: without a
    session (or with a bad bearer token) the answer is 401 as documented, not ninja's
    403 "CSRF check Failed" (``SessionAuth`` checks CSRF before looking at the user)."""

    def _get_key(self, request: HttpRequest) -> str | None:
        if not request.user.is_authenticated:
            return None
        return super()._get_key(request)


# The auth of every endpoint that needs a user: token first, then session + CSRF.
api_auth = [ApiTokenAuth(), SessionCsrfAuth()]
