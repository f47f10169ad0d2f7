"""Writing many rows' changed fields in a few statements whose cost grows with the rows only.

Django's ``bulk_update`` builds one ``CASE WHEN pk = … THEN …`` expression per row and
field, in Python: 24 000 ``When`` nodes for 1 000 repaired ships and their orders, over
85 % of a turn close's CPU (issue 23). :func:`rows_update` joins the table to the new values
instead, one statement for up to a database's limit of parameters::

    UPDATE "t" SET "a" = v."a", "b" = v."b"
    FROM (VALUES (%s, %s, %s), …) AS v ("id", "a", "b") WHERE "t"."id" = v."id"

(SQLite, which takes no alias list, reads ``v.column1``, ``v.column2``, …)

(``UPDATE … FROM``: PostgreSQL, SQLite ≥ 3.33; other databases fall back to
``bulk_update``). The values are prepared as ``bulk_update`` prepares them
(``get_db_prep_save``, no ``pre_save``: ``auto_now`` fields are not touched); on PostgreSQL
each is cast to its column's type, so a column of NULLs or a JSON value keeps its type.

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

#: Parameters of one statement where the database states no limit of its own: PostgreSQL's
#: wire protocol counts them in 16 bits (server-side binding).
PARAMS_MAX = 65_535


def rows_update(manager: Any, objs: Iterable[models.Model], fields: Sequence[str]) -> int:
    """Write ``fields`` (names or attnames of concrete, non-primary-key fields) of every
    object of ``objs`` (saved instances of ``manager``'s model) to its row; returns the
    number of rows matched. The same as ``manager.bulk_update(objs, fields)`` — an object
    listed twice is written once, from its first listing — in ``ceil(rows × (fields + 1) /
    limit)`` statements, ``limit`` being the database's limit of parameters per statement
    (999 on SQLite, :data:`PARAMS_MAX` on PostgreSQL). Raises ``ValueError`` as
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
    ncols = len(columns) + 1
    limit = connection.features.max_query_params or PARAMS_MAX
    batch = max(limit // ncols, 1)
    items = list(rows.items())
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


def _update_sql(connection: Any, model: type[models.Model], columns: list, n: int) -> str:
    """The ``UPDATE … FROM (VALUES …) AS v`` statement for ``n`` rows."""
    qn = connection.ops.quote_name
    opts = model._meta
    table, pk = qn(opts.db_table), opts.pk
    names = [qn(pk.column)] + [qn(f.column) for f in columns]
    if connection.vendor == "postgresql":
        # The casts give every value its column's type: VALUES would type a column of
        # NULLs or of quoted literals as text.
        marks = ", ".join(f"CAST(%s AS {f.cast_db_type(connection)})" for f in [pk, *columns])
        alias, refs = f"v ({', '.join(names)})", names
    else:
        # SQLite names a VALUES table's columns column1, column2, … (no alias list).
        marks = ", ".join(["%s"] * len(names))
        alias, refs = "v", [f"column{i}" for i in range(1, len(names) + 1)]
    values = ", ".join([f"({marks})"] * n)
    sets = ", ".join(f"{name} = v.{ref}" for name, ref in zip(names[1:], refs[1:], strict=True))
    return (
        f"UPDATE {table} SET {sets} FROM (VALUES {values}) AS {alias} "  # noqa: S608
        f"WHERE {table}.{names[0]} = v.{refs[0]}"
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
