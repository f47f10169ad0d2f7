"""The battle page's report fragment, built once per version of what it shows, language
and visibility class (issue 23: the report rows, log lines, map and damage diagrams of a
644-line battle were rebuilt on every request).

The key is the content of what ``report_context`` reads, hashed, so that a write can never
leave a stale page to be served (invalidation by key; no entry is ever deleted):

- the battle's row (every column: status, outcome, texts, report state, version…), its
  campaign's name and language, its sides' rows and its participants' rows;
- how many log entries it has and the last one's id (``Event`` rows are only ever added
  or deleted: the admin cannot change them, a reopen deletes them, a play adds them);
- the fleet data version (``factions.versioning.read_version``: ships, classes,
  squadrons, fleets, light units and factions, read *before* the rows above);
- the report code, templates, styles and catalogues (``battles.reports.keys
  .report_sources_digest``, once per process);
- the language and the reader's visibility class: which of the battle's fleets they may
  see and whether they may read an unpublished report's texts (``battles.visibility``).
  Two readers of one class see the same fragment; one side's view never reaches another
  side's player, whose class differs by the hidden fleet.

The cache is Django's (``CACHES``); entries expire after ``BATTLE_CACHE_SECONDS`` (0: no
cache, every fragment built). Battles of the other game systems (seeds 001–004) are built
every time: their units are read from rows this key does not cover.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from django.conf import settings
from django.core.cache import cache as django_cache
from django.db.models import Count, Max, Q

from battles.models import Battle, Event
from battles.reports.keys import report_sources_digest
from battles.systems.games import DEFAULT_SYSTEM
from battles.visibility import Reader

__all__ = ["LogStats", "cached_fragment", "fragment_key", "log_stats"]

LogStats = dict[str, int | None]


def log_stats(battle: Battle) -> LogStats:
    """``{"n", "last", "setups"}`` of ``battle``'s log: how many entries, the last id
    (None when empty) and how many ``setup`` rows (a replay needs one). One query."""
    return Event.objects.filter(battle_id=battle.pk).aggregate(
        n=Count("pk"), last=Max("pk"), setups=Count("pk", filter=Q(kind="setup"))
    )


@cache
def _sources() -> str:
    # Read once per process: the files do not change under a running server (a deploy
    # restarts it), and a shared cache (Redis) never serves another code's fragment.
    return report_sources_digest()


def _row(obj: Any) -> list[Any]:
    return [getattr(obj, f.attname) for f in obj._meta.concrete_fields]


def fragment_key(
    battle: Battle,
    sides: Iterable[Any],
    stats: LogStats,
    fleets_version: str | None,
    *,
    language: str,
    reader: Reader,
    fleet_ids: Iterable[int | None],
    show_texts: bool,
) -> str | None:
    """The cache key of ``battle``'s report fragment, or None when it may not be cached
    (no fleet data version: this connection has uncommitted writes; another game
    system). ``sides``: the battle's ``BattleSide`` rows with ``participants`` loaded;
    ``stats``: :func:`log_stats`; ``fleets_version``: ``read_version()`` read before
    ``battle`` and ``sides``; ``fleet_ids``: the fleets of the battle's units and sides
    (the reader's class is which of them ``reader`` sees); ``show_texts``:
    ``battles.visibility.may_read_draft``."""
    if fleets_version is None or battle.game_system != DEFAULT_SYSTEM:
        return None
    campaign = battle.campaign
    seen = sorted(pk for pk in set(fleet_ids) if pk is not None and pk in reader.seen_fleets)
    payload = [
        _sources(),
        fleets_version,
        language,
        seen,
        show_texts,
        _row(battle),
        [campaign.name, campaign.slug, campaign.language],
        [[_row(s), [_row(p) for p in s.participants.all()]] for s in sides],
        [stats["n"], stats["last"]],
    ]
    text = json.dumps(payload, default=str, separators=(",", ":"))
    return f"battle-report:{battle.pk}:{hashlib.sha256(text.encode()).hexdigest()}"


def cached_fragment(key: str | None, build: Callable[[], str]) -> str:
    """``build()`` (an HTML fragment) cached under ``key`` (:func:`fragment_key`);
    built without the cache when ``key`` is None or ``BATTLE_CACHE_SECONDS`` is 0."""
    seconds = settings.BATTLE_CACHE_SECONDS
    if key is None or seconds <= 0:
        return build()
    value = django_cache.get(key)
    if value is None:
        value = build()
        django_cache.set(key, value, seconds)
    return value
