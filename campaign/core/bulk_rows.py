"""Writing many rows' changed fields in a few statements whose cost grows with the rows only.

Django's ``bulk_update`` builds one ``CASE WHEN pk = … THEN …`` expression per row and
field, in Python: 24 000 ``When`` nodes for 1 000 repaired ships and their orders, over
85 % of a turn close's CPU. :func:`rows_update` joins the table to the new values
instead. On PostgreSQL, one statement whatever the rows, one array a column (each cast to
its column's type, so a column of NULLs or JSON keeps its type)::

    UPDATE "t" SET "a" = v."a", "b" = v."b"
    FROM unnest(CAST(%s AS bigint[]), CAST(%s AS integer[]), …) AS v ("id", "a", "b")
    WHERE "t"."id" = v."id"

(against a ``VALUES`` list of one placeholder a value, it took reopen ×5 from 0.45 to
0.22 s CPU: psycopg's client-side binding parses and quotes each placeholder;
``bench/turn_close.py``). On SQLite (≥ 3.33), ``UPDATE … FROM (VALUES (?, ?, ?), …) AS v``
reading ``v.column1``, ``v.column2``, …, one statement for up to its limit of parameters
(999 in Django). Other databases fall back to ``bulk_update``. Values are prepared as
``bulk_update`` prepares them (``get_db_prep_save``, no ``pre_save``: ``auto_now`` fields are
not touched).

:func:`rows_update_with_history` adds the history rows the way django-simple-history's
``bulk_update_with_history`` writes them (``bulk_history_create``: type ``~``, the object's
``_change_reason``, ``default_date`` or each row's own ``now()``).

A model whose writes must be known (``factions.versioning``: the fleet pages' caches)
listens to :data:`rows_updated`, sent once per call that wrote rows, like ``post_save``
for a single row (a lower layer tells an upper one with a signal).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connections, models, transaction
from django.dispatch import Signal
from simple_history.utils import get_history_manager_for_model

#: Sent with ``sender`` the model class and ``count`` the rows written, before the
#: statements run (the receivers of ``factions.versioning`` only note the transaction).
rows_updated = Signal()


def rows_update(manager: Any, objs: Iterable[models.Model], fields: Sequence[str]) -> int:
    """Write ``fields`` (names or attnames of concrete, non-primary-key fields) of every
    object of ``objs`` (saved instances of ``manager``'s model) to its row; returns the
    number of rows matched. The same as ``manager.bulk_update(objs, fields)`` — an object
    listed twice is written once, from its first listing — in one statement on PostgreSQL,
    ``ceil(rows × (fields + 1) / limit)`` on SQLite, ``limit`` being its limit of parameters
    per statement (``features.max_query_params``, 999). Raises ``ValueError`` as
    ``bulk_update`` does (no fields, an unsaved object, a primary key or many-to-many
    field named); an object whose value is an expression (``F("x") + 1``) is written by
    ``bulk_update`` itself.
    """
    if not fields:
        raise ValueError("Field names must be given to rows_update().")
    model = manager.model
    opts = model._meta
    columns = [opts.get_field(name) for name in fields]
    if any(not f.concrete or f.many_to_many for f in columns):
        raise ValueError("rows_update() can only be used with concrete fields.")
    if any(f.primary_key for f in columns):
        raise ValueError("rows_update() cannot be used with primary key fields.")
    objs = list(objs)
    rows: dict[Any, list[Any]] = {}
    for obj in objs:
        if obj.pk is None:
            raise ValueError("All rows_update() objects must have a primary key set.")
        if obj.pk not in rows:
            rows[obj.pk] = [getattr(obj, f.attname) for f in columns]
    if not rows:
        return 0
    db = manager.db
    connection = connections[db]
    if connection.vendor not in ("postgresql", "sqlite") or any(
        hasattr(v, "resolve_expression") for values in rows.values() for v in values
    ):
        return manager.bulk_update(objs, fields)
    rows_updated.send(sender=model, count=len(rows))
    pk = opts.pk
    items = list(rows.items())
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                _unnest_sql(connection, model, columns),
                [[pk.get_db_prep_save(key, connection) for key, _v in items]]
                + [
                    [f.get_db_prep_save(values[i], connection) for _k, values in items]
                    for i, f in enumerate(columns)
                ],
            )
            return cursor.rowcount
    ncols = len(columns) + 1
    batch = max(connection.features.max_query_params // ncols, 1)
    matched = 0
    with transaction.atomic(using=db, savepoint=False), connection.cursor() as cursor:
        for start in range(0, len(items), batch):
            chunk = items[start : start + batch]
            params: list[Any] = []
            for key, values in chunk:
                params.append(pk.get_db_prep_save(key, connection))
                params.extend(
                    f.get_db_prep_save(v, connection) for f, v in zip(columns, values, strict=True)
                )
            cursor.execute(_update_sql(connection, model, columns, len(chunk)), params)
            matched += cursor.rowcount
    return matched


def _unnest_sql(connection: Any, model: type[models.Model], columns: list) -> str:
    """PostgreSQL's ``UPDATE … FROM unnest(%s, …) AS v (…)``: one array a column."""
    qn = connection.ops.quote_name
    opts = model._meta
    table, pk = qn(opts.db_table), opts.pk
    names = [qn(pk.column)] + [qn(f.column) for f in columns]
    arrays = ", ".join(f"CAST(%s AS {f.cast_db_type(connection)}[])" for f in [pk, *columns])
    sets = ", ".join(f"{name} = v.{name}" for name in names[1:])
    return (
        f"UPDATE {table} SET {sets} FROM unnest({arrays}) AS v ({', '.join(names)}) "  # noqa: S608
        f"WHERE {table}.{names[0]} = v.{names[0]}"
    )


def _update_sql(connection: Any, model: type[models.Model], columns: list, n: int) -> str:
    """SQLite's ``UPDATE … FROM (VALUES …) AS v`` for ``n`` rows (a VALUES table takes no
    alias list there: its columns are ``column1``, ``column2``, …)."""
    qn = connection.ops.quote_name
    table = qn(model._meta.db_table)
    names = [qn(model._meta.pk.column)] + [qn(f.column) for f in columns]
    marks = "(" + ", ".join(["%s"] * len(names)) + ")"
    sets = ", ".join(f"{name} = v.column{i}" for i, name in enumerate(names[1:], start=2))
    return (
        f"UPDATE {table} SET {sets} FROM (VALUES {', '.join([marks] * n)}) AS v "  # noqa: S608
        f"WHERE {table}.{names[0]} = v.column1"
    )


def rows_update_with_history(
    objs: Sequence[models.Model],
    model: type[models.Model],
    fields: Sequence[str],
    *,
    default_date: Any = None,
    default_user: Any = None,
) -> int:
    """:func:`rows_update` of ``objs`` (a list of ``model`` instances) through the model's
    default manager, and one history row each (type ``~``), as django-simple-history's
    ``bulk_update_with_history(objs, model, fields, default_date=…, default_user=…)``
    writes them, in one transaction. Returns the rows matched."""
    with transaction.atomic(savepoint=False):
        matched = rows_update(model._default_manager, objs, fields)
        get_history_manager_for_model(model).bulk_history_create(
            objs,
            update=True,
            default_user=default_user,
            default_change_reason=None,
            default_date=default_date,
        )
    return matched
