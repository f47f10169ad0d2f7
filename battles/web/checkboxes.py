"""The checkboxes of the battle forms' long lists (the set-up form's ships and light units,
the record form's systems) written without the form renderer's templates: Django renders
``django/forms/widgets/input.html`` (and its includes) once per box, a third of the
set-up form's time for the sample campaign's 120 ships (cProfile). Same HTML, byte for
byte (``tests/battles/web/test_checkboxes.py`` compares it with ``BoundWidget.tag``),
errors and checked boxes included.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from django.forms import BoundField
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

__all__ = ["Box", "boxes", "input_tag"]


class Box(NamedTuple):
    """One choice as the templates read a ``BoundWidget``: ``tag`` (its ``<input>``),
    ``id_for_label``, ``choice_label``, and its ``value``."""

    tag: SafeString
    id_for_label: str | None
    choice_label: Any
    value: Any


def input_tag(option: dict[str, Any]) -> SafeString:
    """The ``<input>`` of one choice (``BoundWidget.data``: ``type``, ``name``,
    ``value``, ``attrs``) as ``BoundWidget.tag()`` renders it."""
    parts = [f'<input type="{escape(option["type"])}" name="{escape(option["name"])}"']
    if option["value"] is not None:
        parts.append(f' value="{escape(option["value"])}"')
    for name, value in option["attrs"].items():
        if value is True:
            parts.append(f" {escape(name)}")
        elif value is not False:
            parts.append(f' {escape(name)}="{escape(value)}"')
    parts.append(">")
    return mark_safe("".join(parts))  # noqa: S308 — every value escaped above


def boxes(field: BoundField) -> list[Box]:
    """The choices of a ``CheckboxSelectMultiple`` (or ``RadioSelect``) bound field, in
    order (its cached ``subwidgets``: one query for a model field)."""
    return [
        Box(input_tag(w.data), w.data["attrs"].get("id"), w.data["label"], w.data["value"])
        for w in field.subwidgets
    ]
