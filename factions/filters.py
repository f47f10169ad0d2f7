"""The filters of the fleet and ship lists (django-filter): the CSV downloads read them
from the query string, so ``ships.csv?fleet=qatzrin-5th&status=damaged`` is the fleet
page's damaged ships. Each filters a queryset already scoped to what the viewer may see
(``factions.access``), never widens it.

Source: django-filter's documentation (``FilterSet``, ``ModelChoiceFilter`` by slug).
"""

from __future__ import annotations

import django_filters
from django.utils.translation import gettext_lazy as _

from factions.models import Fleet, Ship


class FleetFilter(django_filters.FilterSet):
    """``faction`` (slug), ``name`` (part of it, any case)."""

    faction = django_filters.CharFilter(label=_("Faction"), field_name="faction__slug")
    name = django_filters.CharFilter(label=_("Name"), lookup_expr="icontains")

    class Meta:
        model = Fleet
        fields = ["faction", "name"]


class ShipFilter(django_filters.FilterSet):
    """``fleet`` and ``faction`` (slugs), ``status`` (a :class:`Ship.Status`), ``name``
    (part of it, any case)."""

    fleet = django_filters.CharFilter(label=_("Fleet"), field_name="fleet__slug")
    faction = django_filters.CharFilter(label=_("Faction"), field_name="fleet__faction__slug")
    status = django_filters.ChoiceFilter(label=_("Status"), choices=Ship.Status.choices)
    name = django_filters.CharFilter(label=_("Name"), lookup_expr="icontains")

    class Meta:
        model = Ship
        fields = ["fleet", "faction", "status", "name"]
