"""Text checks at the boundary of every write path (forms, API, commands, imports).

PostgreSQL refuses NUL characters in text and over-long values for a ``varchar(n)``;
Python strings may also hold lone UTF-16 surrogates (from JSON's ``"\\ud800"``) that no
database can encode. SQLite accepts all three silently, so without these checks the same
input is a 500 on one database and stored on the other. Each check raises
:class:`TextError`, a ``ValidationError`` whose message names the field, so every path
answers the same clear 4xx on both databases.

- :func:`clean_text` checks one value (services, commands, forms);
- :func:`check_model_text` checks every text field of a model instance against its
  column (``max_length``; ``limits.TEXT_MAX_CHARS`` for long texts) and is run before
  every save (``campaign.league.apps``: ``pre_save``), the safety net for paths that forgot
  (``bulk_create``/``bulk_update`` skip it: callers check those objects themselves);
- :func:`check_json_text` walks a JSON value (designs, rule options).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _

from campaign.core.limits import TEXT_MAX_CHARS


class TextError(ValidationError):
    """A text value that cannot be stored; ``field`` names it, the message says why."""

    def __init__(self, message: str, *, field: str) -> None:
        super().__init__(message, code="invalid_text")
        self.field = field

    def __str__(self) -> str:
        return self.messages[0]


def text_problem(value: str, *, max_length: int | None = None) -> str | None:
    """Why ``value`` cannot be stored (a translated phrase), or None if it can."""
    if "\x00" in value:
        return _("contains a NUL character (\\x00)")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return _("contains an invalid character (a lone UTF-16 surrogate)")
    if max_length is not None and len(value) > max_length:
        return _("is %(length)d characters long; the limit is %(limit)d") % {
            "length": len(value),
            "limit": max_length,
        }
    return None


def clean_text(value: str, *, field: str, max_length: int | None = None) -> str:
    """Return ``value`` stripped; raise :class:`TextError` naming ``field`` when it holds
    a NUL or a lone surrogate, or (stripped) exceeds ``max_length`` characters."""
    value = value.strip()
    problem = text_problem(value, max_length=max_length)
    if problem:
        raise TextError(
            _("%(field)s: %(problem)s") % {"field": field, "problem": problem}, field=field
        )
    return value


def json_text_problem(value: Any, *, path: str = "") -> tuple[str, str] | None:
    """The first string (key or value) inside the JSON ``value`` that holds a NUL or a lone
    surrogate, as ``(path, why)`` with a path like ``results[0].notes``; None if clean."""
    stack: list[tuple[str, Any]] = [(path, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            problem = text_problem(item)
            if problem:
                return where, problem
        elif isinstance(item, dict):
            for key, child in item.items():
                label = f"{where}.{key}" if where else str(key)
                if isinstance(key, str) and text_problem(key):
                    return label, text_problem(key) or ""
                stack.append((label, child))
        elif isinstance(item, list | tuple):
            stack.extend((f"{where}[{i}]", child) for i, child in enumerate(item))
    return None


def check_json_text(value: Any, *, field: str) -> None:
    """Raise :class:`TextError` if any string (key or value) inside the JSON ``value``
    holds a NUL or a lone surrogate (PostgreSQL's jsonb refuses ``\\u0000``)."""
    found = json_text_problem(value)
    if found:
        where, problem = found
        label = f"{field} {where}".strip()
        raise TextError(
            _("%(field)s: %(problem)s") % {"field": label, "problem": problem}, field=label
        )


def check_model_text(instance: models.Model) -> None:
    """Raise :class:`TextError` for the first text or JSON field of ``instance`` that its
    column cannot store; the field is named ``<model> <field>`` (e.g. "fleet admiral")."""
    for model_field in instance._meta.concrete_fields:
        value = getattr(instance, model_field.attname, None)
        if value is None:
            continue
        label = f"{instance._meta.model_name} {model_field.name}"
        if isinstance(model_field, models.JSONField):
            check_json_text(value, field=label)
        elif isinstance(value, str):
            limit = getattr(model_field, "max_length", None)
            if limit is None and isinstance(model_field, models.TextField):
                limit = TEXT_MAX_CHARS  # narratives, descriptions, notes (campaign.core.limits)
            problem = text_problem(value, max_length=limit)
            if problem:
                raise TextError(
                    _("%(field)s: %(problem)s") % {"field": label, "problem": problem}, field=label
                )
