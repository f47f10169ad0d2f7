"""The history page's filters (django-filter): which kinds, who acted, a date range and the
object's name. Each filter reads the columns every arm of ``campaign.history.events``
annotates, so one :class:`HistoryFilter` filters every arm alike in SQL.

Source: django-filter's documentation (``FilterSet`` with declared filters,
``filter_queryset``).
"""

from __future__ import annotations

import django_filters
from django import forms
from django.db.models import QuerySet
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from campaign.history.events import history_arms, history_union
from campaign.league.models import Campaign

_DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")

KIND_CHOICES = [
    ("member", _("members")),
    ("fleet", _("fleets")),
    ("ship", _("ships")),
    ("battle", _("battles")),
    ("turn", _("turns")),
    ("ledger", _("ledger")),
]


class HistoryFilter(django_filters.FilterSet):
    """``kind`` (one of :data:`KIND_CHOICES`, empty: all), ``who`` (a user name, any
    case), ``since`` / ``until`` (dates, inclusive, in the server's time zone) and
    ``object`` (part of the object's name, any case). Bad input is a form error naming
    the field; the queryset then holds nothing."""

    kind = django_filters.ChoiceFilter(
        label=_("What"), choices=KIND_CHOICES, empty_label=_("everything"), method="_all"
    )
    who = django_filters.CharFilter(label=_("By"), field_name="ev_who", lookup_expr="iexact")
    # A date picker on a phone; the value sent is ISO (2026-12-02) whatever the language.
    since = django_filters.DateFilter(
        label=_("From"), field_name="ev_at", lookup_expr="date__gte", widget=_DATE
    )
    until = django_filters.DateFilter(
        label=_("To"), field_name="ev_at", lookup_expr="date__lte", widget=_DATE
    )
    object = django_filters.CharFilter(
        label=_("Name"), field_name="ev_label", lookup_expr="icontains"
    )

    def _all(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        # The kind picks which arms are read at all (campaign_history), not rows of one.
        return queryset


def campaign_history(campaign: Campaign, data: QueryDict) -> tuple[HistoryFilter, QuerySet | None]:
    """The filter form bound to ``data`` (a ``QueryDict``) and ``campaign``'s history it
    selects as one ordered queryset of dicts (``campaign.history.events.COLUMNS``); None
    when the form is invalid."""
    arms = history_arms(campaign)
    form_set = HistoryFilter(data, queryset=arms["member"])
    if not form_set.is_valid():
        return form_set, None
    kind = form_set.form.cleaned_data.get("kind")
    chosen = [arms[kind]] if kind else list(arms.values())
    return form_set, history_union([form_set.filter_queryset(arm) for arm in chosen])
