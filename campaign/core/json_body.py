"""A JSON request body read as the API takes it: one object whose numbers are finite.

django-ninja validates a schema body through attribute access, so ``[]``, ``"x"``,
``null`` or ``123`` read as an object with every field left out (an "empty edit" was
written, versioned and published that way), and ``1e999`` reads as infinity. Every body
the API reads goes through :func:`parse_object`; the API answers :class:`BodyShapeError`
with 422 naming the body.
"""

from __future__ import annotations

import json
import math
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

__all__ = ["BodyShapeError", "parse_object"]


class BodyShapeError(ValueError):
    """A JSON body that is not an object, or holds a number no float can hold; the
    message names the body and says what it was, in the reader's language."""


#: What a JSON body was, by the Python type ``json.loads`` gives.
_JSON_TYPES = {
    list: gettext_lazy("an array"),
    str: gettext_lazy("a string"),
    type(None): gettext_lazy("null"),
    bool: gettext_lazy("true or false"),
}


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BodyShapeError(_("body: the number %(number)s is out of range") % {"number": text})
    return value


def _no_constant(text: str) -> float:
    raise BodyShapeError(_("body: %(value)s is not a JSON number") % {"value": text})


def parse_object(raw: bytes | str) -> dict[str, Any]:
    """The JSON object ``raw`` holds. Raises :class:`BodyShapeError` for any other JSON
    value or a number out of a float's range (``1e999``, ``NaN``), ``ValueError``
    (``json.JSONDecodeError``) for text that is not JSON."""
    data = json.loads(raw, parse_float=_finite, parse_constant=_no_constant)
    if not isinstance(data, dict):
        kind = _JSON_TYPES.get(type(data), gettext_lazy("a number"))
        raise BodyShapeError(_("body: expected a JSON object, got %(type)s") % {"type": kind})
    return data
