"""The campaign document's schema, built with pydantic from :data:`tables.TABLES`.

Shape: ``{"schema": "admiralty-campaign", "version": 1, "campaign": {…}, "<table>":
[row, …], …}`` with one list per table, each row an object of the model's fields (a foreign
key by the target's natural key, its 1-based position in its table, or a user name). Every
error names its JSON path: ``ships[3].fleet`` is the fourth row of ``ships`` (paths count
from 0, as JSON arrays; references count rows from 1, as ``ship-1`` is the first ship).
"""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta
from functools import cache
from typing import Annotated, Any, Literal

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import MaxLengthValidator
from django.db import models
from django.utils.translation import gettext as _
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    create_model,
)

from campaign.core.refusals import Kind, Refused
from campaign.core.validation import json_text_problem, text_problem
from campaign.exchange.tables import TABLE_OF_MODEL, TABLES, USER, Table, user_model
from campaign.league.models import Campaign

SCHEMA = "admiralty-campaign"
VERSION = 1


class DocumentError(Refused):
    """A document that cannot be imported; ``errors``: ``[(JSON path, message), …]``.
    Nothing was written."""

    kind = Kind.INVALID


def json_path(loc: tuple[Any, ...]) -> str:
    """``("ships", 3, "fleet")`` → ``"ships[3].fleet"``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _text_check(max_length: int | None):
    def check(value: str) -> str:
        problem = text_problem(value, max_length=max_length)
        if problem:
            raise ValueError(problem)
        return value

    return check


def _json_check(value: Any) -> Any:
    # json.dumps (in C) escapes a NUL as \u0000 and cannot encode a lone surrogate: only
    # then is the value walked for the problem's path and words.
    try:
        text = json.dumps(value, ensure_ascii=False)
        text.encode("utf-8")
        if "\\u0000" not in text:
            return value
    except UnicodeEncodeError:
        pass
    problem = json_text_problem(value)
    if problem:
        raise ValueError(f"{problem[0]}: {problem[1]}" if problem[0] else problem[1])
    return value


def _validators_check(validators: list):
    def check(value: Any) -> Any:
        for validator in validators:
            try:
                validator(value)
            except DjangoValidationError as exc:
                raise ValueError(" ".join(exc.messages)) from None
        return value

    return check


def _choice_check(choices: tuple[str, ...]):
    def check(value: Any) -> Any:
        if value not in choices:
            raise ValueError(
                _("%(value)r is not one of %(choices)s")
                % {"value": value, "choices": ", ".join(choices)}
            )
        return value

    return check


def reference_target(f: models.Field) -> Table | str:
    """The table a foreign key points to, or :data:`USER`."""
    return _targets()[f.related_model]


@cache
def _targets() -> dict[type[models.Model], Table | str]:
    return {**TABLE_OF_MODEL, user_model(): USER}


def _annotation(f: models.Field) -> Any:
    if f.is_relation:
        target = reference_target(f)
        if target == USER or target.key:
            return StrictStr
        return Annotated[StrictInt, Field(ge=1)]
    if isinstance(f, models.JSONField):
        return Annotated[Any, AfterValidator(_json_check)]
    if isinstance(f, models.BooleanField):
        return StrictBool
    if isinstance(f, models.DateTimeField):
        return datetime
    if isinstance(f, models.DateField):
        return date
    if isinstance(f, models.DurationField):
        return timedelta
    if isinstance(f, models.IntegerField):
        positive = (
            models.PositiveIntegerField,
            models.PositiveSmallIntegerField,
            models.PositiveBigIntegerField,
        )
        big = isinstance(f, (models.BigIntegerField, models.PositiveBigIntegerField))
        high = 2**63 - 1 if big else 2**31 - 1
        return Annotated[StrictInt, Field(ge=0 if isinstance(f, positive) else -high - 1, le=high)]
    if isinstance(f, (models.CharField, models.TextField)):
        checks = [AfterValidator(_text_check(f.max_length))]
        if f.choices:
            checks.append(AfterValidator(_choice_check(tuple(str(c[0]) for c in f.flatchoices))))
        # A slug's characters, a time zone's name (the length is checked above).
        others = [v for v in f.validators if not isinstance(v, MaxLengthValidator)]
        if others:
            checks.append(AfterValidator(_validators_check(others)))
        return Annotated[StrictStr, *checks]
    raise TypeError(f"no document type for {f.model.__name__}.{f.name}")


def _row_model(name: str, fields: list[models.Field]) -> type[BaseModel]:
    spec: dict[str, Any] = {}
    for f in fields:
        annotation = _annotation(f)
        if f.null or getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
            annotation = annotation | None
        if f.has_default():
            spec[f.name] = (annotation, Field(default_factory=f.get_default))
        elif f.null or getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
            spec[f.name] = (annotation, None)
        elif f.blank and isinstance(f, (models.CharField, models.TextField)):
            spec[f.name] = (annotation, "")
        else:
            spec[f.name] = (annotation, ...)
    config = ConfigDict(extra="forbid", protected_namespaces=())
    return create_model(f"{name}_row", __config__=config, **spec)


def campaign_fields() -> list[models.Field]:
    """The campaign's own exported fields (the document's ``campaign`` object)."""
    return [f for f in Campaign._meta.concrete_fields if not f.primary_key]


@cache
def document_model() -> type[BaseModel]:
    """The pydantic model of a whole document (built once, from the tables)."""
    spec: dict[str, Any] = {
        "schema_": (Literal["admiralty-campaign"], Field(alias="schema")),
        "version": (Literal[1], ...),
        "campaign": (_row_model("campaign", campaign_fields()), ...),
    }
    for table in TABLES:
        spec[table.name] = (list[_row_model(table.name, table.fields())], Field(default=[]))
    config = ConfigDict(extra="forbid", protected_namespaces=())
    return create_model("CampaignDocument", __config__=config, **spec)


def document_parse(data: Any) -> dict[str, Any]:
    """Validate ``data`` (a decoded JSON value) as a campaign document; returns
    ``{"campaign": {field: value}, "<table>": [{field: value}, …]}`` with Python values
    (datetimes, dates, durations). Raises :class:`DocumentError` naming ``version`` for
    another schema version (checked first: a later version may have other tables), else
    every invalid field by its JSON path."""
    if not isinstance(data, dict):
        raise DocumentError(_("a campaign document is one JSON object"), errors=[("", "")])
    if data.get("schema") != SCHEMA:
        message = _("expected %(schema)r") % {"schema": SCHEMA}
        raise DocumentError(_("not a campaign document"), errors=[("schema", message)])
    if data.get("version") != VERSION:
        message = _("version %(got)r is not supported: this instance reads version %(ours)s") % {
            "got": data.get("version"),
            "ours": VERSION,
        }
        raise DocumentError(message, errors=[("version", message)])
    try:
        parsed = document_model().model_validate(data)
    except ValidationError as exc:
        errors = [(json_path(e["loc"]), e["msg"]) for e in exc.errors()]
        first = f"{errors[0][0]}: {errors[0][1]}"
        more = len(errors) - 1
        detail = _("the document is invalid: %(first)s") % {"first": first}
        if more:
            detail += " " + _("(and %(n)s more)") % {"n": more}
        raise DocumentError(detail, errors=errors) from None
    return parsed.model_dump(exclude={"schema_", "version"})
