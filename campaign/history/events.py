"""The merged history of one campaign, read from the django-simple-history tables of its
memberships, fleets, ships, battles and turns and from its ledger (append-only, each row
with its author and time: its own history).

One SQL ``UNION ALL`` of one arm per kind, each arm scoped to the campaign and filtered
in SQL (:class:`campaign.history.filters.HistoryFilter`), ordered and sliced by the
database: a page costs the same two queries (count, rows) however long the history.

Scope: a fleet or ship counts when its faction takes part in the campaign (a faction in
two campaigns shows in both); a ship by its fleet's history rows, so a ship of a deleted
fleet stays. Source: django-simple-history's documentation (``history_type`` ``+`` created,
``~`` changed, ``-`` deleted; ``history_user``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Case, CharField, F, IntegerField, QuerySet, Value, When
from django.db.models.functions import Cast, Concat

from battles.models import Battle
from campaign.league.models import Campaign, Membership
from campaign.turns.models import CampaignTurn, LedgerEntry
from factions.models import Fleet, Ship

#: The kinds of row, in the filter's order.
KINDS = ("member", "fleet", "ship", "battle", "turn", "ledger")

#: The columns every arm selects, in this order (a union matches them by position).
COLUMNS = (
    "ev_at",
    "ev_kind",
    "ev_change",
    "ev_label",
    "ev_object",
    "ev_who",
    "ev_detail",
    "ev_extra",
    "ev_row",
)


@dataclass(frozen=True)
class HistoryEvent:
    """One row of the history: ``at`` (aware datetime), ``kind`` (one of :data:`KINDS`),
    ``change`` (``+`` created, ``~`` changed, ``-`` deleted), ``label`` (the object's
    name: user name, fleet, ship, battle, turn number or faction of a ledger row),
    ``object_id``, ``who`` (user name of who acted, "" for a command or the system),
    ``detail`` (a stored code: role, status or ledger kind) and ``extra`` (faction name,
    hull boxes lost, or "resources / technology" of a ledger row)."""

    at: datetime
    kind: str
    change: str
    label: str
    object_id: int
    who: str
    detail: str
    extra: str

    @property
    def detail_label(self) -> str:
        """:attr:`detail` in the reader's language (a role, a status, a ledger kind,
        "hidden" for a hidden fleet), or as stored when unknown."""
        labels = _DETAIL_LABELS.get(self.kind, {})
        return str(labels.get(self.detail, self.detail))


_DETAIL_LABELS = {
    "member": dict(Membership.Role.choices),
    "fleet": {"hidden": Fleet._meta.get_field("hidden").verbose_name},
    "ship": dict(Ship.Status.choices),
    "battle": dict(Battle.Status.choices),
    "turn": dict(CampaignTurn.Status.choices),
    "ledger": dict(LedgerEntry.Kind.choices),
}


def _text(expr) -> Cast:
    return Cast(expr, output_field=CharField())


def _history(
    qs: QuerySet,
    kind: str,
    *,
    label,
    detail,
    extra,
) -> QuerySet:
    """One arm over a simple-history table: its columns as :data:`COLUMNS`."""
    return qs.annotate(
        ev_at=F("history_date"),
        ev_kind=Value(kind, output_field=CharField()),
        ev_change=_text(F("history_type")),
        ev_label=_text(label),
        ev_object=Cast(F("id"), output_field=IntegerField()),
        ev_who=_text(F("history_user__username")),
        ev_detail=_text(detail),
        ev_extra=_text(extra),
        ev_row=Cast(F("history_id"), output_field=IntegerField()),
    )


def _none() -> Value:
    return Value("", output_field=CharField())


def history_arms(campaign: Campaign) -> dict[str, QuerySet]:
    """``{kind: queryset}`` of ``campaign``'s history, each annotated with :data:`COLUMNS`
    (and filterable on ``ev_at``, ``ev_label``, ``ev_who``), not yet reduced to them."""
    faction_ids = campaign.factions.values("pk")
    fleet_ids = Fleet.history.filter(faction_id__in=faction_ids).values("id")
    return {
        "member": _history(
            Membership.history.filter(campaign=campaign),
            "member",
            label=F("user__username"),
            detail=F("role"),
            extra=F("faction__name"),
        ),
        "fleet": _history(
            Fleet.history.filter(faction_id__in=faction_ids),
            "fleet",
            label=F("name"),
            detail=Case(When(hidden=True, then=Value("hidden")), default=_none()),
            extra=F("faction__name"),
        ),
        "ship": _history(
            Ship.history.filter(fleet_id__in=fleet_ids),
            "ship",
            label=F("name"),
            detail=F("status"),
            extra=F("hull_lost"),
        ),
        "battle": _history(
            Battle.history.filter(campaign=campaign),
            "battle",
            label=F("name"),
            detail=F("status"),
            extra=_none(),
        ),
        "turn": _history(
            CampaignTurn.history.filter(campaign=campaign),
            "turn",
            label=F("number"),
            detail=F("status"),
            extra=_none(),
        ),
        "ledger": LedgerEntry.objects.filter(campaign=campaign).annotate(
            ev_at=F("created_at"),
            ev_kind=Value("ledger", output_field=CharField()),
            ev_change=Value("+", output_field=CharField()),
            ev_label=_text(F("faction__name")),
            ev_object=Cast(F("pk"), output_field=IntegerField()),
            ev_who=_text(F("user__username")),
            ev_detail=_text(F("kind")),
            ev_extra=Concat(
                _text(F("resources")),
                Value(" / "),
                _text(F("technology")),
                output_field=CharField(),
            ),
            ev_row=Cast(F("pk"), output_field=IntegerField()),
        ),
    }


def history_union(arms: list[QuerySet]) -> QuerySet | None:
    """The arms reduced to :data:`COLUMNS`, as one ``UNION ALL`` newest first (ties: kind,
    then row id, descending), or None when there is no arm."""
    if not arms:
        return None
    parts = [arm.order_by().values(*COLUMNS) for arm in arms]
    first, rest = parts[0], parts[1:]
    return first.union(*rest, all=True).order_by("-ev_at", "-ev_kind", "-ev_row")


def history_events(rows: list[dict]) -> list[HistoryEvent]:
    """The rows of a page of :func:`history_union` as :class:`HistoryEvent` s."""
    return [
        HistoryEvent(
            at=r["ev_at"],
            kind=r["ev_kind"],
            change=r["ev_change"],
            label=r["ev_label"] or "",
            object_id=r["ev_object"],
            who=r["ev_who"] or "",
            detail=r["ev_detail"] or "",
            extra=r["ev_extra"] or "",
        )
        for r in rows
    ]
