"""The fleet page's body and the fleet API's JSON, built once per version of the fleet
data and viewer scope (fast as fleets grow).

Keys: fleet id, the fleet data version (``factions.versioning``: a new token after every
committed write to what these views show), the viewer's scope
(``factions.access.fleet_scope``) and, for HTML, the language. The cache is Django's
(``CACHES``: per process by default, Redis when ``REDIS_CACHE_URL`` is set); entries
expire after ``FLEET_CACHE_SECONDS`` anyway, a bound on staleness should a version bump
ever be lost (a process dying between its commit and the bump).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.conf import settings
from django.core.cache import cache
from django.http import Http404

from campaign.league.roles import User
from factions.access import can_see_fleet
from factions.models import Fleet
from factions.versioning import read_version

T = TypeVar("T")


def visible_fleet(user: User, slug: str) -> Fleet:
    """The fleet ``slug`` with its faction and admiral, if ``user`` may see it (else
    Http404), and ``data_version``, the version read just *before* it (``read_version``'s
    rule)."""
    version = read_version()
    # get(), not first(): no ORDER BY (the fleets' default order joins the factions).
    try:
        fleet = Fleet.objects.select_related("faction", "admiral").get(slug=slug)
    except Fleet.DoesNotExist:
        raise Http404("No fleet matches the given query.") from None
    if not can_see_fleet(user, fleet):
        raise Http404("No fleet matches the given query.")
    fleet.data_version = version
    return fleet


def cached(kind: str, fleet: Fleet, scope: str, build: Callable[[], T]) -> T:
    """``build()``'s value for ``kind`` (e.g. ``"page-fr"``, ``"api"``) of ``fleet`` seen
    in ``scope``, from the cache when there; ``fleet`` comes from :func:`visible_fleet`.
    Without a usable version (``read_version`` gave None), or with the caches off
    (``FLEET_CACHE_SECONDS`` = 0), it just builds."""
    version = fleet.data_version
    if version is None or settings.FLEET_CACHE_SECONDS <= 0:
        return build()
    key = f"fleet:{kind}:{fleet.pk}:{version}:{scope}"
    value = cache.get(key)
    if value is None:
        value = build()
        cache.set(key, value, settings.FLEET_CACHE_SECONDS)
    return value
