"""Write a campaign out as one JSON document (:mod:`campaign.exchange.document`).

One query a table (rows in primary-key order, so an import, which creates them in document
order, exports again identically), references by natural key or position, no database id
anywhere: engine ids and row ids in stored JSON become positions
(:mod:`campaign.exchange.ids`).
"""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta
from typing import Any

from django.db import models
from django.utils.translation import gettext as _

from campaign.core.refusals import Kind, Refused
from campaign.exchange.document import SCHEMA, VERSION, campaign_fields, reference_target
from campaign.exchange.ids import UnknownRef
from campaign.exchange.tables import KIND_TABLES, TABLES, USER, user_model
from campaign.league.models import Campaign
from campaign.league.roles import require_organiser


class ExportError(Refused):
    """The campaign holds a reference the document cannot name (a row outside the
    campaign); the message names the row and field."""

    kind = Kind.CONFLICT


def _plain(f: models.Field, value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, timedelta):
        return value.total_seconds()
    return value


def campaign_export(*, campaign: Campaign, user: Any) -> dict[str, Any]:
    """The whole of ``campaign`` as a document (a dict ready for :func:`document_dumps`):
    ``{"schema": "admiralty-campaign", "version": 1, "campaign": {…}, "factions": […],
    …}`` with every table of :data:`tables.TABLES`.

    For the campaign's organisers, staff and the system actor only (it holds hidden
    fleets, secret notes and every side's orders): anyone else is refused
    (``require_organiser``: 404 outside the campaign, 403 for its other members). Raises
    :class:`ExportError` naming ``<table>[i].<field>`` for a reference to a row outside
    the campaign. Reads only."""
    require_organiser(user, campaign, _("only an organiser may export the campaign"))
    document: dict[str, Any] = {
        "schema": SCHEMA,
        "version": VERSION,
        "campaign": {f.name: _plain(f, f.value_from_object(campaign)) for f in campaign_fields()},
    }
    usernames = dict(user_model()._default_manager.values_list("pk", "username"))
    keys: dict[str, dict[int, Any]] = {}
    for table in TABLES:
        fields = table.fields()
        rows = (
            table.model._base_manager.filter(**{table.scope: campaign})
            .order_by("pk")
            .values_list("pk", *(f.attname for f in fields))
        )
        out, names = [], {}
        for position, (pk, *values) in enumerate(rows, 1):
            row = {}
            for f, value in zip(fields, values, strict=True):
                if f.is_relation and value is not None:
                    target = reference_target(f)
                    known = usernames if target == USER else keys[target.name]
                    if value not in known:
                        raise ExportError(
                            _("%(path)s names a row outside the campaign")
                            % {"path": f"{table.name}[{position - 1}].{f.name}"}
                        )
                    value = known[value]
                row[f.name] = _plain(f, value)
            names[pk] = "/".join(str(row[k]) for k in table.key) if table.key else position
            out.append(row)
        keys[table.name] = names
        document[table.name] = out

    def mapper(kind: str, pk: int) -> Any:
        return keys[KIND_TABLES[kind]][pk]

    for table in TABLES:
        for position, row in enumerate(document[table.name]):
            for name, walk in table.ids.items():
                try:
                    row[name] = walk(row[name], mapper)
                except UnknownRef as exc:
                    raise ExportError(
                        _("%(path)s: %(ref)s names no unit of the campaign")
                        % {"path": f"{table.name}[{position}].{name}.{exc.path}", "ref": exc.ref}
                    ) from None
    return document


def document_dumps(document: dict[str, Any]) -> str:
    """The document as JSON text, keys sorted, so the same campaign gives the same bytes."""
    return json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
