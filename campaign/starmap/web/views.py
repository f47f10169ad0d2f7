"""The campaign's star map page and its move forms. Thin: the map is drawn from
``map_view`` (the one reading of who sees what), orders go to
``campaign.starmap.movement``; refusals come back as messages naming the field.

Who: anonymous users are sent to log in; non-members of the campaign get 404; every
member reads the map as ``map_view`` shows it to them; orders need the fleet's player or
an organiser (a chronicler: 403; a fleet or order the user does not see: 404).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign.league.models import Campaign
from campaign.league.roles import (
    is_organiser,
    require_faction_scope,
    require_member,
    require_organiser,
)
from campaign.starmap import movement
from campaign.starmap.models import MapMove, StarSystem
from campaign.starmap.svg import draw_map
from campaign.starmap.view import map_view
from campaign.turns.errors import TurnActionError
from campaign.turns.models import CampaignTurn
from factions.models import Fleet


def _members_only(view):
    def wrapped(request: HttpRequest, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


def _turn_param(request: HttpRequest) -> int | None:
    raw = request.GET.get("turn", "")
    return int(raw) if raw.isdigit() and len(raw) < 10 else None


@_members_only
def map_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The map (SVG), the systems with who holds them and the fleets there, the fleets in
    transit, and for a player or organiser the move form of each fleet they order.
    ``?turn=N``: the map at the close of turn N."""
    campaign = get_object_or_404(Campaign, slug=slug)
    require_member(request.user, campaign)
    turn = _turn_param(request)
    if turn is not None and not campaign.turns.filter(number=turn).exists():
        raise Http404("no such turn")  # a turn never opened has no map to show
    view = map_view(campaign, request.user, turn=turn)
    names = {s.id: s.name for s in view.systems}
    by_system: dict[int, list] = {}
    for f in view.fleets:
        if f.system_id is not None:
            by_system.setdefault(f.system_id, []).append(f)
    systems = [(s, by_system.get(s.id, [])) for s in view.systems]
    links = {lk.id: lk for lk in view.links}
    transit = [
        (f, links.get(f.link_id), names.get(f.heading_id, "")) for f in view.fleets if f.in_transit
    ]
    orders = {}
    if view.commands:  # only the fleets the reader orders: never a rival's orders
        for m in MapMove.objects.filter(
            campaign=campaign,
            fleet_id__in=list(view.commands),
            status__in=movement.ACTIVE,
        ):
            orders[m.fleet_id] = m
    movable = [
        (f, orders.get(f.id), names.get(f.destination_id, ""))
        for f in view.fleets
        if f.id in view.commands
    ]
    link_names = {lk.id: f"{lk.a_name} – {lk.b_name}" for lk in view.links}
    contacts = [(c, names.get(c.system_id) or link_names.get(c.link_id, "")) for c in view.contacts]
    sightings = [
        (c, names.get(c.system_id) or link_names.get(c.link_id, "")) for c in view.sightings
    ]
    turn_open = campaign.turns.filter(status=CampaignTurn.Status.OPEN).exists()
    return render(
        request,
        "starmap/map.html",
        {
            "campaign": campaign,
            "view": view,
            "svg": draw_map(view),
            "systems": systems,
            "transit": transit,
            "movable": movable,
            "contacts": contacts,
            "sightings": sightings,
            # Moves are ordered during an open turn: no form between turns.
            "can_order": turn_open
            and any(
                not f.in_transit and getattr(o, "status", "") != MapMove.Status.UNDER_WAY
                for f, o, _d in movable
            ),
            "turn_open": turn_open,
            "turn": turn,
            "reach": movement.move_reach(campaign),
            "placeable": (
                list(
                    Fleet.objects.filter(faction__in=campaign.factions.all())
                    .select_related("faction")
                    .order_by("faction__name", "name")
                )
                if is_organiser(request.user, campaign) and not turn
                else []
            ),
            "past_turns": list(
                campaign.turns.filter(closed_at__isnull=False)
                .order_by("number")
                .values_list("number", flat=True)
            ),
        },
    )


def _pk(request: HttpRequest, name: str) -> int | None:
    raw = request.POST.get(name, "")
    return int(raw) if raw.isdigit() and len(raw) < 19 else None


@require_POST
@_members_only
def move_order(request: HttpRequest, slug: str) -> HttpResponse:
    """Order a fleet (``fleet`` id) to a system (``destination`` id) along the links."""
    campaign = get_object_or_404(Campaign, slug=slug)
    seen = require_faction_scope(request.user, campaign)
    fleet = get_object_or_404(  # another campaign's fleet: 404, never named
        Fleet.objects.select_related("faction").filter(faction__in=campaign.factions.all()),
        pk=_pk(request, "fleet"),
    )
    if seen is not None and fleet.faction_id not in seen:
        raise Http404("not your faction's fleet")
    try:
        destination = StarSystem.objects.filter(
            campaign=campaign, pk=_pk(request, "destination")
        ).first()
        if destination is None:
            raise TurnActionError(_("destination: choose a system of the map"))
        movement.map_move_order(
            campaign=campaign, fleet=fleet, destination=destination, user=request.user
        )
    except TurnActionError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Move ordered."))
    return redirect("starmap", slug=campaign.slug)


@require_POST
@_members_only
def move_cancel(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Cancel a queued move order (its faction's player or an organiser)."""
    campaign = get_object_or_404(Campaign, slug=slug)
    seen = require_faction_scope(request.user, campaign)
    move = get_object_or_404(
        MapMove.objects.select_related("fleet__faction"), pk=pk, campaign=campaign
    )
    if seen is not None and move.fleet.faction_id not in seen:
        raise Http404("not your faction's order")
    try:
        movement.map_move_cancel(move=move, user=request.user)
    except TurnActionError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Move cancelled."))
    return redirect("starmap", slug=campaign.slug)


@require_POST
@_members_only
def fleet_place(request: HttpRequest, slug: str) -> HttpResponse:
    """Put a fleet (``fleet`` id) of the campaign in a system (``system`` id): organisers
    (other members 403, anyone else 404)."""
    campaign = get_object_or_404(Campaign, slug=slug)
    require_organiser(request.user, campaign)
    try:
        fleet = Fleet.objects.filter(
            faction__in=campaign.factions.all(), pk=_pk(request, "fleet")
        ).first()
        system = StarSystem.objects.filter(campaign=campaign, pk=_pk(request, "system")).first()
        if fleet is None:
            raise TurnActionError(_("fleet: choose a fleet of this campaign"))
        if system is None:
            raise TurnActionError(_("system: choose a system of the map"))
        movement.fleet_place(campaign=campaign, fleet=fleet, system=system, user=request.user)
    except TurnActionError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Fleet placed."))
    return redirect("starmap", slug=campaign.slug)
