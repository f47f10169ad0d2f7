"""Template tags of the league pages: the signed-in user's campaigns and roles (nav)."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def my_memberships(context: dict[str, Any]) -> list[Any]:
    """The request user's memberships (campaign, role, faction), one query; empty for
    anonymous users."""
    from campaign.models import Membership

    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return []
    return list(
        Membership.objects.filter(user=user)
        .select_related("campaign", "faction")
        .order_by("campaign__name", "role")
    )
