"""A page's body rendered once per cache key and served to every request with that key,
each form given the request's own CSRF token (the turn page and the campaign page:
``campaign.turns.web.page_cache``, ``campaign.web.league``).

The caller makes the key (what the body shows: data versions, viewer's scope, language…);
None means build it every time. What is cached is the rendered template with a random
placeholder where each ``{% csrf_token %}`` goes; the request's token replaces it when the
body is served. The cache is Django's (``CACHES``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe


def cached_body(
    request: HttpRequest,
    template: str,
    key: str | None,
    context: Callable[[], dict],
    seconds: int,
) -> SafeString:
    """``template`` rendered for ``request`` from ``context()`` (called only when the body
    is built), kept ``seconds`` under ``key`` (None: not cached); raises what rendering
    raises."""
    if key is None or seconds <= 0:
        return render_to_string(template, context(), request=request)
    entry = cache.get(key)
    if entry is None:
        placeholder = secrets.token_hex(16)
        html = render_to_string(template, {**context(), "csrf_token": placeholder}, request=request)
        entry = (placeholder, html)
        cache.set(key, entry, seconds)
    placeholder, html = entry
    # The placeholder is 32 random hex digits, never in a page otherwise.
    return mark_safe(html.replace(placeholder, get_token(request)))  # noqa: S308
