"""Template helpers of the game systems: a system's name in the reader's language and
exact probabilities shown as percentages with their fraction."""

from __future__ import annotations

from fractions import Fraction

from django import template
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from battles.systems.games import SYSTEMS
from campaign.league.roles import is_organiser

register = template.Library()


@register.filter
def system_name(system_id: str) -> str:
    """``"sw-starship-battles"`` → its name in the current language (registry names)."""
    system = SYSTEMS.get(system_id)
    if system is None:
        return system_id
    return system.name_fr if (get_language() or "").startswith("fr") else system.name


@register.filter
def reopen_label(system_id: str) -> str:
    """The reopen button in the system's own word for what it puts back: ships (Full
    Thrust, Star Wars Starship Battles), starships (Starfinder), units (Epic)."""
    labels = {
        "starfinder": _("Reopen: put every starship back as before the battle"),
        "epic": _("Reopen: put every unit back as before the battle"),
    }
    return str(labels.get(system_id, _("Reopen: put every ship back as before the battle")))


@register.filter
def localised(obj: object, attribute: str) -> str:
    """``obj.<attribute>_fr`` in French, ``obj.<attribute>`` otherwise (rules data)."""
    if (get_language() or "").startswith("fr"):
        return getattr(obj, f"{attribute}_fr", None) or getattr(obj, attribute, "")
    return getattr(obj, attribute, "")


@register.filter
def percent(p: Fraction | None) -> str:
    """``Fraction(13, 20)`` → ``"65 %"`` (one decimal when not whole); ``—`` for None."""
    if p is None:
        return "—"
    value = float(p) * 100
    return f"{value:.0f} %" if abs(value - round(value)) < 0.05 else f"{value:.1f} %"


@register.filter
def fraction(p: Fraction | None) -> str:
    """``Fraction(13, 20)`` → ``"13/20"``."""
    if p is None:
        return "—"
    p = Fraction(p)
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


@register.simple_tag
def system_helpers(system_id: str) -> tuple:
    """The helpers (``battles.systems.games.Helper``) of a game system that have a page."""
    system = SYSTEMS.get(system_id)
    return tuple(h for h in system.helpers if h.page) if system else ()


@register.simple_tag(takes_context=True)
def organises(context: template.Context, campaign: object) -> bool:
    """Whether the viewer organises ``campaign`` (``campaign.league.roles.is_organiser``)."""

    request = context.get("request")
    return bool(request) and is_organiser(request.user, campaign)
