"""The turn page's body built once per version of the campaign data, campaign, viewer's
scope, language and time zone (without it an organiser's turn page cost ~99 000
Python calls a request, mostly the ORM building the close preview's queries, then the template).

The key holds the ``fleets`` and ``campaign`` data versions (``factions.versioning
.read_versions``: the campaign one changes after every committed write to any table the
page reads — turns, ledger, yards, moves, star map, memberships, battles, fleets, users —
so a write shows at once; no entry is ever deleted, an old one is never read again) and the
viewer's scope:

- ``staff`` or ``organiser`` (the view's ``require_faction_scope`` gave None: every
  faction; staff read the last turn's summary unfiltered, organisers through
  ``summary_scoped``, hence apart);
- a player: the faction ids they see and their user id (the summary's fleets are those
  ``visible_fleets`` gives *them*, which may name factions of other campaigns they
  organise). One faction's view never reaches another faction's player.

What is cached is the rendered body (``templates/turns/_turn_body.html``), each form's
CSRF token put in when served (``campaign.core.page_cache``). A refused form (the page
shown again with the values typed) is built every time. Entries live
``TURN_CACHE_SECONDS`` (0: off, every body built). Inside a transaction that has written
(tests wrapped in one), no cache is used.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils import timezone, translation
from django.utils.safestring import SafeString

from campaign.core.page_cache import cached_body
from campaign.league.models import Campaign
from campaign.league.roles import User, require_faction_scope
from factions.versioning import read_versions

BODY = "turns/_turn_body.html"


def scope_key(user: User, seen: set[int] | None) -> str:
    """The viewer's scope as it enters the key (module docstring): ``"staff"``,
    ``"organiser"``, or ``"f<ids>:u<user id>"`` for a player."""
    if seen is None:
        return "staff" if user.is_staff else "organiser"
    return "f" + ",".join(str(i) for i in sorted(seen)) + f":u{user.pk}"


def body_key(versions: tuple[str, str], campaign: Campaign, scope: str) -> str:
    """The cache key of a turn page body: versions, campaign, scope, language, time zone."""
    fleets, data = versions
    return (
        f"turn-body:{fleets}:{data}:{campaign.pk}:{scope}:"
        f"{translation.get_language()}:{timezone.get_current_timezone_name()}"
    )


def page_versions() -> tuple[str, str] | None:
    """The data versions to key the turn page's caches with (None: build everything), read
    before any row the page shows."""
    return read_versions() if settings.TURN_CACHE_SECONDS > 0 else None


def faction_scope(
    user: User, campaign: Campaign, versions: tuple[str, str] | None
) -> set[int] | None:
    """``require_faction_scope(user, campaign)``, kept under the data versions (memberships
    and users are campaign data: a new role, a staff flag, a faction given changes the
    key); a refusal is raised, never kept."""
    if versions is None:
        return require_faction_scope(user, campaign)
    key = f"turn-scope:{versions[0]}:{versions[1]}:{campaign.pk}:{user.pk}"
    entry = cache.get(key)
    if entry is None:
        entry = (require_faction_scope(user, campaign),)
        cache.set(key, entry, settings.TURN_CACHE_SECONDS)
    return entry[0]


def turn_body(
    request: HttpRequest,
    campaign: Campaign,
    seen: set[int] | None,
    versions: tuple[str, str] | None,
    context: Callable[[], dict],
) -> SafeString:
    """The turn page's body for ``request``'s viewer (scope ``seen``), from the cache when
    its key is there, else rendered from ``context()`` (called only then) and cached;
    ``versions`` from :func:`page_versions` (None: built every time)."""
    key = None if versions is None else body_key(versions, campaign, scope_key(request.user, seen))
    return cached_body(request, BODY, key, context, settings.TURN_CACHE_SECONDS)
