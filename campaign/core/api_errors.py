"""The API's one error body, ``ErrorOut``, as every router documents it; built from a
refusal by ``campaign.core.refusals.error_body``. Apart from the refusals so that they load
no django-ninja: the models and services raise them at start-up's import, and ninja with
pydantic cost every command about 0.2 s of CPU (import alone, 3 runs)."""

from __future__ import annotations

from ninja import Schema


class FieldError(Schema):
    """One input field's problem."""

    field: str
    message: str


class ErrorOut(Schema):
    """Every error the API answers: ``detail`` (a sentence in the reader's language) and,
    for invalid input, one entry a field in ``errors`` (absent, that is empty, otherwise)."""

    detail: str
    errors: list[FieldError] = []
