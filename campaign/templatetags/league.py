"""Template tags of the league pages: the signed-in user's campaigns and roles (nav)."""

from __future__ import annotations

from typing import Any

from django import template

from battles.models import Participant
from campaign.core.stored_text import stored_text
from campaign.league.models import Membership
from factions.models import Ship

register = template.Library()


@register.simple_tag(takes_context=True)
def my_memberships(context: dict[str, Any]) -> list[Any]:
    """The request user's memberships (campaign, role, faction), one query; empty for
    anonymous users."""

    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return []
    return list(
        Membership.objects.filter(user=user)
        .select_related("campaign", "faction")
        .order_by("campaign__name", "role")
    )


@register.filter
def state_status(value: str) -> str:
    """The translated label of a ship-state ``status`` (a ``Ship.Status`` value, or a
    ``battles.models.Participant.Fate`` value in a timeline's "after"); unknown values unchanged.
    E.g. ``"destroyed"`` → ``"détruit"`` in French."""

    for choices in (Ship.Status, Participant.Fate):
        if value in choices.values:
            return str(choices(value).label)
    return value


@register.filter
def item(mapping: dict[str, Any] | None, key: str) -> Any:
    """``mapping[key]``, or ``None`` when ``mapping`` is empty or has no ``key`` (e.g. a
    baked battle's ``site_pdfs`` by language, templates/site/_battle_list.html)."""
    return (mapping or {}).get(key)


@register.filter(name="stored_text")
def stored_text_filter(value: Any, message: Any = None) -> str:
    """A text a service stored (ledger reason, history reason, timeline summary, engine
    outcome) in the active language (``campaign.core.stored_text``): from its stored
    message when given (``{{ e.reason|stored_text:e.reason_message }}``), else from the
    English; any other text unchanged. Returns a plain ``str``: autoescaping still applies."""

    return stored_text(value if value is None else str(value), message)
