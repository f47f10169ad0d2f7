"""What the sample's loaders share: their error, reading a data file, and saving a row
only where it differs (so that loading the sample again changes nothing)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.db import models


class SampleDataError(ValueError):
    """A sample data file that cannot be loaded; the message names the file and field."""


def read_json(path: Path) -> dict[str, Any]:
    """The JSON document in ``path``; raises :class:`SampleDataError` naming the file."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise SampleDataError(f"{path.name}: {exc}") from exc


def upsert(
    model: type[models.Model],
    lookup: dict[str, Any],
    values: dict[str, Any],
    *,
    create_only: dict[str, Any] | None = None,
) -> tuple[Any, bool]:
    """Get the row matching ``lookup`` and save only the ``values`` that differ, or create it.

    Returns ``(row, changed)``. Foreign keys are given as ``<field>_id`` so comparing them
    costs no query.
    """
    obj = model.objects.filter(**lookup).first()
    if obj is None:
        return model.objects.create(**lookup, **values, **(create_only or {})), True
    changed = [f for f, v in values.items() if getattr(obj, f) != v]
    for f in changed:
        setattr(obj, f, values[f])
    if changed:
        obj.save(update_fields=changed)
    return obj, bool(changed)
