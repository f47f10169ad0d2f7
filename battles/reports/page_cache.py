"""The battle page's report and its list of the fleets and ships fighting, built once per
version of what they show, language and visibility class (without it the report rows,
log lines, map and damage diagrams of a 644-line battle were rebuilt on every request).

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

The battle page caches its odds panel under this key too, per perspective
(``battles.web.battles``). The cache is Django's (``CACHES``); entries expire after
``BATTLE_CACHE_SECONDS`` (0: no cache, every fragment built). Battles of the other game
systems (seeds 001–004) are built every time: their units are read from rows this key
does not cover.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

from django.conf import settings
from django.core.cache import cache as django_cache
from django.db import connection

from battles.models import Battle, BattleSide, Event, Participant
from battles.reports.keys import report_sources_digest
from battles.systems.games import DEFAULT_SYSTEM
from battles.visibility import Reader, followed_fleet, reader_for
from campaign.league.roles import User
from factions.access import can_see_fleet
from factions.models import Fleet, LightUnitGroup, Ship

__all__ = [
    "BattleStamp",
    "FleetRow",
    "battle_stamp",
    "cached_fragments",
    "fragments_key",
    "stamp_reader",
]


class FleetRow(NamedTuple):
    """A fleet as ``factions.access.can_see_fleet`` reads it."""

    hidden: bool
    faction_id: int


@dataclass(frozen=True)
class BattleStamp:
    """What the key reads of one battle's rows (:func:`battle_stamp`): ``sides`` and
    ``units`` (every column of its ``BattleSide`` and ``Participant`` rows, in order;
    each unit row ends with the fleet the unit follows, ``battles.visibility
    .followed_fleet``), ``log`` (how many entries, the last id, how many ``setup``
    rows), ``fleet_ids`` (the sides' and units' fleets) and ``fleets`` (``{fleet id:
    FleetRow}`` of those and the carriers' fleets)."""

    sides: list[tuple]
    units: list[tuple]
    log: tuple[int, int | None, int]
    fleet_ids: frozenset[int]
    fleets: dict[int, FleetRow]

    @property
    def has_setup(self) -> bool:
        """True when the log holds a ``setup`` row (the battle can be replayed)."""
        return bool(self.log[2])


def _columns(model: Any, alias: str) -> str:
    qn = connection.ops.quote_name
    return ", ".join(f"{alias}.{qn(f.column)}" for f in model._meta.concrete_fields)


@cache
def _statements() -> tuple[str, str, str, str]:
    # Plain statements: the ORM's compiling of the same reads was most of a cached page's
    # time (cProfile); with them, and the public's reader from the fleet rows, the
    # public Mieska page took 7.5 ms of CPU a request in process instead of 9.5 ms
    # (DJANGO_DEBUG=0, SQLite; the bare /api/factions 2.4-2.7 ms). Only table and column
    # names from the models go in; ids are parameters.
    qn = connection.ops.quote_name
    participant, side = qn(Participant._meta.db_table), qn(BattleSide._meta.db_table)
    ship, group = qn(Ship._meta.db_table), qn(LightUnitGroup._meta.db_table)
    units = (
        f"SELECT {_columns(Participant, 'p')}, sh.fleet_id, lu.fleet_id, ca.fleet_id "  # noqa: S608
        f"FROM {participant} p INNER JOIN {side} s ON p.side_id = s.id "
        f"LEFT JOIN {ship} sh ON p.ship_id = sh.id "
        f"LEFT JOIN {group} lu ON p.light_units_id = lu.id "
        f"LEFT JOIN {ship} ca ON lu.carrier_id = ca.id "
        "WHERE s.battle_id = %s ORDER BY p.id"
    )
    sides = f"SELECT {_columns(BattleSide, 's')} FROM {side} s WHERE s.battle_id = %s"  # noqa: S608
    sides += " ORDER BY s.id"
    log = (
        "SELECT COUNT(*), MAX(id), SUM(CASE WHEN kind = 'setup' THEN 1 ELSE 0 END) "  # noqa: S608
        f"FROM {qn(Event._meta.db_table)} WHERE battle_id = %s"
    )
    fleets = f"SELECT id, hidden, faction_id FROM {qn(Fleet._meta.db_table)} WHERE id IN "  # noqa: S608
    return units, sides, log, fleets


def battle_stamp(battle: Battle) -> BattleStamp:
    """:class:`BattleStamp` of ``battle``: four plain queries, whatever its size."""
    units_sql, sides_sql, log_sql, fleets_sql = _statements()
    fields = [f.attname for f in Participant._meta.concrete_fields]
    ship_at = fields.index("ship_id")
    side_fleet_at = [f.attname for f in BattleSide._meta.concrete_fields].index("fleet_id")
    with connection.cursor() as cursor:
        cursor.execute(units_sql, [battle.pk])
        rows = cursor.fetchall()
        cursor.execute(sides_sql, [battle.pk])
        sides = cursor.fetchall()
        cursor.execute(log_sql, [battle.pk])
        n, last, setups = cursor.fetchone()
        fleet_ids = {row[-3] for row in rows} | {s[side_fleet_at] for s in sides}
        fleet_ids |= {row[-2] for row in rows} | {row[-1] for row in rows}
        fleet_ids.discard(None)
        fleets: dict[int, FleetRow] = {}
        if fleet_ids:
            cursor.execute(fleets_sql + f"({', '.join(['%s'] * len(fleet_ids))})", list(fleet_ids))
            fleets = {pk: FleetRow(bool(hidden), faction) for pk, hidden, faction in cursor}
    units = []
    for row in rows:
        *columns, ship_fleet, group_fleet, carrier_fleet = row
        fleet = followed_fleet(columns[ship_at], ship_fleet, group_fleet, carrier_fleet)
        units.append((*columns, fleet))
    fleet_ids = {u[-1] for u in units} | {s[side_fleet_at] for s in sides}
    fleet_ids.discard(None)
    return BattleStamp(
        sides=sides,
        units=units,
        log=(n, last, setups or 0),
        fleet_ids=frozenset(fleet_ids),
        fleets=fleets,
    )


def stamp_reader(user: User, stamp: BattleStamp) -> Reader:
    """The :class:`~battles.visibility.Reader` ``user`` is, asked about the battle's
    fleets: for the anonymous public from the stamp's fleet rows
    (``factions.access.can_see_fleet``, no query), else ``battles.visibility.reader_for``
    (one query)."""
    if user is None or not user.is_authenticated:
        seen = (pk for pk in stamp.fleet_ids if pk in stamp.fleets)
        return Reader(frozenset(pk for pk in seen if can_see_fleet(None, stamp.fleets[pk])), None)
    return reader_for(user, among=stamp.fleet_ids)


@cache
def _sources() -> str:
    # Read once per process: the files do not change under a running server (a deploy
    # restarts it), and a shared cache (Redis) never serves another code's fragment.
    return report_sources_digest()


def fragments_key(
    battle: Battle,
    stamp: BattleStamp,
    fleets_version: str | None,
    *,
    language: str,
    reader: Reader,
    show_texts: bool,
) -> str | None:
    """The cache key of ``battle``'s page fragments, or None when they may not be cached
    (no fleet data version: this connection has uncommitted writes; another game
    system). ``stamp``: :func:`battle_stamp`; ``fleets_version``: ``read_version()``
    read before ``battle`` and ``stamp``; ``reader``: asked about ``stamp.fleet_ids``
    (the reader's class is which of them it sees); ``show_texts``:
    ``battles.visibility.may_read_draft``."""
    if fleets_version is None or battle.game_system != DEFAULT_SYSTEM:
        return None
    campaign = battle.campaign
    payload = [
        _sources(),
        fleets_version,
        language,
        sorted(stamp.fleet_ids & reader.seen_fleets),
        show_texts,
        [getattr(battle, f.attname) for f in battle._meta.concrete_fields],
        [campaign.name, campaign.slug, campaign.language],
        stamp.sides,
        stamp.units,
        stamp.log,
    ]
    text = json.dumps(payload, default=str, separators=(",", ":"))
    return f"battle-page:{battle.pk}:{hashlib.sha256(text.encode()).hexdigest()}"


def cached_fragments(key: str | None, build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``build()`` (named HTML fragments, or other picklable values) cached under ``key``
    (:func:`fragments_key`, or a key made from it); built without the cache when ``key``
    is None or ``BATTLE_CACHE_SECONDS`` is 0."""
    seconds = settings.BATTLE_CACHE_SECONDS
    if key is None or seconds <= 0:
        return build()
    value = django_cache.get(key)
    if value is None:
        value = build()
        django_cache.set(key, value, seconds)
    return value
