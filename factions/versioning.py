"""The version of the fleet data, the key that tells the fleet page's and fleet API's
caches apart (fast as fleets grow).

Every write to a table those views read (:data:`WATCHED`: factions, territories, ship
classes, fleets, squadrons, ships, light units, commanders, repair orders) gives the ``fleets``
:class:`DataVersion` a new random token once its transaction commits:
``save()`` and ``delete()`` through signals (cascades included: Django sends them per
object when a receiver listens), ``QuerySet.update`` (``bulk_update`` too)/``bulk_create``/
``delete`` through :class:`VersionedQuerySet`, the watched models' manager (and their
related managers), ``campaign.core.bulk_rows.rows_update`` through its ``rows_updated``
signal (``factions.apps``). One global version rather than one per fleet: nothing to map (a class
edit touches every fleet using it, a yard's rename every fleet there), and writes are
rare next to reads.

Why after commit: bumping inside the transaction would lock the version row until the
commit and serialise (or deadlock, on PostgreSQL) writers that lock ships in turn. A
reader that comes between the commit and the bump at worst serves the previous page for
that instant. A connection whose own transaction has written (a bump pending) reads
around the caches (:func:`read_version` gives None), so it never caches what it has not
committed nor misses its own writes — which is also why the caches stay unused inside
tests wrapped in a transaction; ``tests/factions/test_fleet_cache.py`` commits for real.

Tokens are random, not counters: a restored database or a flushed test database never
brings back a version whose cached pages show other data.
"""

from __future__ import annotations

import logging
import re
import secrets
from typing import Any

from django.db import models, transaction

logger = logging.getLogger(__name__)

FLEETS = "fleets"


class DataVersion(models.Model):
    """A random token that changes after every committed write to a family of data
    (``name``: ``"fleets"``), the key of that family's caches (this module)."""

    name = models.CharField(max_length=40, primary_key=True)
    token = models.CharField(max_length=32)

    def __str__(self) -> str:
        return f"{self.name}: {self.token}"


#: Models whose rows the fleet page or fleet API shows ("app_label.ModelName").
WATCHED = (
    "factions.Faction",
    "factions.Territory",
    "factions.ShipClass",
    "factions.Fleet",
    "factions.Squadron",
    "factions.Ship",
    "factions.LightUnitGroup",
    "factions.Commander",
    "turns.RepairOrder",
)


def _bump() -> None:
    """Give the fleet data a new version (runs after the writing transaction commits):
    one UPDATE; the row is created if missing (a flushed test database)."""
    token = secrets.token_hex(8)
    if not DataVersion.objects.filter(name=FLEETS).update(token=token):
        DataVersion.objects.update_or_create(name=FLEETS, defaults={"token": token})


def _pending(connection: Any) -> bool:
    # run_on_commit holds (savepoint ids, callback, robust) tuples; a rolled-back savepoint
    # takes its callbacks out, so this is exactly "this transaction wrote fleet data".
    return any(entry[1] is _bump for entry in connection.run_on_commit)


def changed(**_signal_kwargs: Any) -> None:
    """Note that fleet data changed: the version changes when the transaction commits (at
    once outside one). Also a ``post_save``/``post_delete`` receiver."""
    connection = transaction.get_connection()
    if not _pending(connection):
        transaction.on_commit(_bump, robust=True)


def read_version() -> str | None:
    """The version to key a cache with: the stored token, or None when no cache may be
    used (none is stored, or this connection's transaction has written fleet data it has
    not committed). Read it *before* the rows the cached value is built from: those are
    then never older than the version they are cached under.
    """
    connection = transaction.get_connection()
    if _pending(connection):
        return None
    # One plain statement: the ORM's compiling of this lookup cost 0.5 ms, 15 times the
    # query itself (in-process timing on the bench fleet).
    table = connection.ops.quote_name(DataVersion._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT token FROM {table} WHERE name = %s", [FLEETS])  # noqa: S608
        row = cursor.fetchone()
    return row[0] if row else None


class VersionedQuerySet(models.QuerySet):
    """A queryset whose bulk writes mark the fleet data changed (see the module doc);
    ``bulk_update`` runs through ``update``."""

    def update(self, **kwargs: Any) -> int:
        changed()
        return super().update(**kwargs)

    def bulk_create(self, objs: Any, *args: Any, **kwargs: Any) -> list:
        changed()
        return super().bulk_create(objs, *args, **kwargs)

    def delete(self) -> tuple[int, dict[str, int]]:
        changed()
        return super().delete()

    delete.alters_data = True
    delete.queryset_only = True
    update.alters_data = True


# The "campaign" family: the campaign and turn pages' caches. What those pages
# read spans every app (turns, ledger, yards, moves, star map, memberships, battles,
# scoring, fleets, users' names), and some of it is written by ``QuerySet.update`` or raw
# statements no signal reports; so the family is told by the database connection itself:
# every INSERT, UPDATE or DELETE a connection runs on a table other than those of
# :data:`CAMPAIGN_UNWATCHED` gives the ``campaign`` version a new token once its
# transaction commits (at once outside one; :func:`watch_writes`, installed on every
# connection by ``factions.apps``). It changes at least as often as the ``fleets`` one.
CAMPAIGN = "campaign"

#: Tables whose writes no campaign or turn page shows: sessions, the versions themselves,
#: the database cache, the log-in throttle's attempts, migrations.
CAMPAIGN_UNWATCHED = frozenset(
    {
        "django_session",
        "factions_dataversion",
        "django_cache",
        "axes_accessattempt",
        "axes_accesslog",
        "axes_accessfailurelog",
        "django_migrations",
    }
)

_WRITE = re.compile(
    r"\s*(?:UPDATE|INSERT\s+INTO|DELETE\s+FROM|REPLACE\s+INTO)\s+[\"`]?(\w+)", re.IGNORECASE
)


_table_seen = False


def _bump_campaign() -> None:
    """Give the campaign data a new version (after the writing transaction commits);
    nothing while the versions' table is not there yet (a database being migrated, whose
    pages nobody has cached)."""
    global _table_seen
    if not _table_seen:
        connection = transaction.get_connection()
        _table_seen = DataVersion._meta.db_table in connection.introspection.table_names()
        if not _table_seen:
            return
    token = secrets.token_hex(8)
    if not DataVersion.objects.filter(name=CAMPAIGN).update(token=token):
        DataVersion.objects.update_or_create(name=CAMPAIGN, defaults={"token": token})


def watch_writes(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
    """A connection execute wrapper (Django's ``execute_wrappers``): runs the statement,
    then, when it wrote a watched table (or is a ``WITH`` statement that may write), marks
    the campaign data changed for when ``context["connection"]``'s transaction commits."""
    result = execute(sql, params, many, context)
    head = sql[:80] if isinstance(sql, str) else ""
    match = _WRITE.match(head)
    if match is not None:
        write = match.group(1).lower() not in CAMPAIGN_UNWATCHED
    else:
        write = head.lstrip()[:4].upper() == "WITH"
    if write:
        connection = context["connection"]
        if not any(entry[1] is _bump_campaign for entry in connection.run_on_commit):
            connection.on_commit(_bump_campaign, robust=True)
    return result


def install_watch(connection: Any, **_signal_kwargs: Any) -> None:
    """Add :func:`watch_writes` to ``connection`` once (a ``connection_created`` receiver)."""
    if watch_writes not in connection.execute_wrappers:
        connection.execute_wrappers.append(watch_writes)


def read_versions() -> tuple[str, str] | None:
    """``(fleets token, campaign token)`` in one query, or None when no cache may be used
    (either is not stored yet, or this connection's transaction has written data it has
    not committed). Read it *before* the rows the cached value is built from."""
    connection = transaction.get_connection()
    if any(entry[1] in (_bump, _bump_campaign) for entry in connection.run_on_commit):
        return None
    table = connection.ops.quote_name(DataVersion._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT name, token FROM {table} WHERE name IN (%s, %s)",  # noqa: S608
            [FLEETS, CAMPAIGN],
        )
        tokens = dict(cursor.fetchall())
    if FLEETS not in tokens or CAMPAIGN not in tokens:
        return None
    return tokens[FLEETS], tokens[CAMPAIGN]
