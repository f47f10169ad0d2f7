"""The filters of battle lists (django-filter), shared by the campaign page, the faction
page and ``GET /api/battles``: each narrows a queryset already scoped to what the viewer
may see (``battles.access.visible_battles``), never widens it.

Source: django-filter's documentation (``FilterSet``, ``method=`` filters).
"""

from __future__ import annotations

import django_filters
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from battles.models import Battle, BattleSide


class BattleFilter(django_filters.FilterSet):
    """``campaign`` and ``faction`` (slugs: a faction on either side), ``status``,
    ``turn`` (the campaign turn) and ``name`` (part of it, any case)."""

    campaign = django_filters.CharFilter(label=_("Campaign"), field_name="campaign__slug")
    faction = django_filters.CharFilter(label=_("Faction"), method="_faction")
    status = django_filters.ChoiceFilter(label=_("Status"), choices=Battle.Status.choices)
    turn = django_filters.NumberFilter(
        label=_("Campaign turn"), field_name="campaign_turn", min_value=0
    )
    name = django_filters.CharFilter(label=_("Name"), lookup_expr="icontains")

    class Meta:
        model = Battle
        fields = ["campaign", "faction", "status", "turn", "name"]

    def _faction(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        # A subquery, not a join: a battle stays one row whichever side matched.
        sides = BattleSide.objects.filter(faction__slug=value).values("battle_id")
        return queryset.filter(pk__in=sides)
