"""Pages of the campaign turn: the turn page (organiser: turn, deadline, preview of the
close, yards' queues, treasuries; a player: their faction's), the repair and construction
forms (quote first, then confirm), and the POST actions. Thin: they scope through
the ``access`` helpers and call the services; errors come back as messages naming the field.

Who: anonymous users are sent to log in; a user who neither organises the campaign nor plays
in it gets 404, as do other campaigns' objects.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign.core import limits
from campaign.core.validation import TextError
from campaign.league.models import Campaign
from campaign.league.roles import is_organiser, require_faction_scope
from campaign.turns import building, closing, repairs, treasury
from campaign.turns.errors import TurnActionError, field_label
from campaign.turns.models import Construction, RepairOrder
from campaign.turns.web.page_cache import BODY, faction_scope, page_versions, turn_body
from campaign.turns.web.turn_context import turn_context
from factions.access import visible_ships
from factions.models import Fleet, LightUnitGroup, ShipClass, Territory
from factions.type_words import SEED_GUNBOAT_VARIANTS


def _campaign_for(request: HttpRequest, slug: str) -> tuple[Campaign, set[int] | None]:
    """The campaign and the faction ids the user may see there (None: all); 404 for
    non-members, 403 for members who see no faction (``require_faction_scope``)."""
    campaign = get_object_or_404(Campaign, slug=slug)
    return campaign, require_faction_scope(request.user, campaign)


def _members_only(view):
    def wrapped(request: HttpRequest, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


def parse_deadline(value: str, campaign: Campaign) -> datetime | None:
    """A ``datetime-local`` value read in the campaign's time zone (empty: no deadline)."""
    if not value:
        return None
    try:
        naive = datetime.fromisoformat(value)
    except ValueError as exc:
        raise TurnActionError(
            _("deadline: %(text)r is not a date and time") % {"text": value}
        ) from exc
    return naive.replace(tzinfo=ZoneInfo(campaign.time_zone)) if timezone.is_naive(naive) else naive


def _int(request: HttpRequest, name: str, source=None) -> int:
    raw = (source or request.POST).get(name, "") or "0"
    try:
        value = int(raw)
    except ValueError as exc:
        raise TurnActionError(
            _("%(field)s: '%(value)s' is not a whole number")
            % {"field": field_label(name), "value": raw}
        ) from exc
    if abs(value) > limits.NUMBER_MAX:
        raise TurnActionError(
            _("%(field)s: %(value)s is out of range (at most %(max)s)")
            % {"field": field_label(name), "value": raw, "max": limits.NUMBER_MAX}
        )
    return value


@_members_only
def turn_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The campaign's turn page (module docstring)."""
    # The versions first: no row the cached body shows is older than its key.
    versions = page_versions()
    campaign = get_object_or_404(Campaign, slug=slug)
    seen = faction_scope(request.user, campaign, versions)
    body = turn_body(
        request, campaign, seen, versions, lambda: turn_context(campaign, seen, request.user)
    )
    return render(request, "turns/turn.html", {"campaign": campaign, "turn_body": body})


def _refused_page(request: HttpRequest, context: dict) -> HttpResponse:
    """The turn page shown again (400) after a refused form: ``context`` holds the values
    typed and the message; built every time, never cached."""
    context["turn_body"] = render_to_string(BODY, context, request=request)
    return render(request, "turns/turn.html", context, status=400)


def _confirmed(request: HttpRequest) -> None:
    """Raise :class:`TurnActionError` unless the form's "I confirm" box was ticked (a
    cancelled order loses its place in the yard's queue)."""
    if not request.POST.get("confirm"):
        raise TurnActionError(_("Tick “I confirm” to go on; nothing was done."))


def _act(request: HttpRequest, campaign: Campaign, action, done: str) -> HttpResponse:
    try:
        action()
    except TurnActionError as exc:
        messages.error(request, str(exc))
    except TextError as exc:  # a reason or name no column can store: nothing was changed
        messages.error(request, exc.messages[0])
    else:
        messages.success(request, done)
    return redirect("turn-page", slug=campaign.slug)


def _deadline_act(request: HttpRequest, slug: str, action, done: str) -> HttpResponse:
    """Run ``action(campaign, deadline)`` with the form's ``deadline``; a refusal shows
    the turn page again (400) with the value typed and the message beside the field."""
    campaign, seen = _campaign_for(request, slug)
    typed = request.POST.get("deadline", "")
    try:
        action(campaign, parse_deadline(typed, campaign))
    except TurnActionError as exc:
        context = turn_context(campaign, seen, request.user)
        context["deadline_refused"] = {"value": typed, "error": str(exc)}
        return _refused_page(request, context)
    messages.success(request, done)
    return redirect("turn-page", slug=campaign.slug)


@require_POST
@_members_only
def turn_open(request: HttpRequest, slug: str) -> HttpResponse:
    """Open the next turn (organisers)."""
    return _deadline_act(
        request,
        slug,
        lambda campaign, deadline: closing.campaign_turn_open(
            campaign=campaign, user=request.user, deadline=deadline
        ),
        _("Turn opened."),
    )


@require_POST
@_members_only
def turn_deadline(request: HttpRequest, slug: str) -> HttpResponse:
    """Set or clear the open turn's deadline (organisers)."""

    def run(campaign: Campaign, deadline: datetime | None) -> None:
        current = closing.open_turn(campaign)
        if current is None:
            raise TurnActionError(_("%(campaign)s has no open turn") % {"campaign": campaign.name})
        closing.campaign_turn_deadline(turn=current, user=request.user, deadline=deadline)

    return _deadline_act(request, slug, run, _("Deadline saved."))


@require_POST
@_members_only
def turn_close(request: HttpRequest, slug: str) -> HttpResponse:
    """Close the open turn (organisers)."""
    campaign, _seen = _campaign_for(request, slug)

    def run():
        # Closing cannot be undone lightly: the form's "I confirm" box must be ticked
        # (checked here too; a player is refused by the service as before).
        if not request.POST.get("confirm") and is_organiser(request.user, campaign):
            raise TurnActionError(_("Tick “I confirm” to close the turn; nothing was done."))
        closing.campaign_turn_close(campaign=campaign, user=request.user)

    return _act(request, campaign, run, _("Turn closed."))


def _turn_number(value: str | None) -> int:
    """The form's ``turn`` (the turn it reopens) as a number; a missing or garbled one is
    refused (nothing done) so that a reopen never guesses which turn it meant."""
    try:
        return int(value or "")
    except ValueError:
        raise TurnActionError(_("turn: the turn to reopen is missing; nothing was done.")) from None


@require_POST
@_members_only
def turn_reopen(request: HttpRequest, slug: str) -> HttpResponse:
    """Reopen the last closed turn (organisers)."""
    campaign, _seen = _campaign_for(request, slug)

    def run():
        # Reopening rolls the whole campaign back: the form's "I confirm" box must be ticked.
        if not request.POST.get("confirm") and is_organiser(request.user, campaign):
            raise TurnActionError(_("Tick “I confirm” to go on; nothing was done."))
        closing.campaign_turn_reopen(
            campaign=campaign, user=request.user, turn=_turn_number(request.POST.get("turn"))
        )

    return _act(request, campaign, run, _("Turn reopened."))


@require_POST
@_members_only
def treasury_adjust(request: HttpRequest, slug: str) -> HttpResponse:
    """An organiser's credit or debit with its reason. A refusal shows the turn page again
    (400) with the values typed and the message at the top of the form."""
    campaign, seen = _campaign_for(request, slug)
    # Shown again on a refusal: a NUL (refused as text) is not written back into the page.
    typed = {
        k: request.POST.get(k, "").replace("\x00", "")
        for k in ("faction", "resources", "technology", "reason")
    }
    try:
        faction = campaign.factions.filter(pk=_int(request, "faction")).first()
        if faction is None:
            raise TurnActionError(_("faction: choose a faction of the campaign"))
        treasury.treasury_adjust(
            campaign=campaign,
            faction=faction,
            resources=_int(request, "resources"),
            technology=_int(request, "technology"),
            reason=request.POST.get("reason", ""),
            user=request.user,
        )
    except (TurnActionError, TextError) as exc:
        context = turn_context(campaign, seen, request.user)
        error = exc.messages[0] if isinstance(exc, TextError) else str(exc)
        context["adjust_refused"] = {**typed, "error": error}
        return _refused_page(request, context)
    messages.success(request, _("Treasury adjusted."))
    return redirect("turn-page", slug=campaign.slug)


@require_POST
@_members_only
def repair_cancel(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Cancel a repair order (its player or an organiser); refunds the work not done."""
    campaign, seen = _campaign_for(request, slug)
    order = get_object_or_404(
        RepairOrder.objects.select_related("ship__fleet__faction"), pk=pk, campaign=campaign
    )
    if seen is not None and order.ship.fleet.faction_id not in seen:
        raise Http404("not your faction's order")

    def run() -> None:
        _confirmed(request)
        repairs.repair_cancel(order=order, user=request.user)

    return _act(request, campaign, run, _("Repair order cancelled."))


@require_POST
@_members_only
def construction_cancel(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Cancel a construction (its faction's player or an organiser); refunds the turns not
    worked (``campaign.turns.building.construction_refund``)."""
    campaign, seen = _campaign_for(request, slug)
    build = get_object_or_404(Construction, pk=pk, campaign=campaign)
    if seen is not None and build.faction_id not in seen:
        raise Http404("not your faction's construction")

    def run() -> None:
        _confirmed(request)
        building.construction_cancel(construction=build, user=request.user)

    return _act(request, campaign, run, _("Construction cancelled."))


@_members_only
def repair_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Order repairs for a ship: GET shows the form (and the quote when asked), POST
    confirms. 404 unless the ship's faction plays here and the user may act for it."""
    campaign, seen = _campaign_for(request, slug)
    ship = get_object_or_404(
        visible_ships(request.user).select_related(
            "ship_class", "fleet__faction", "fleet__territory"
        ),
        pk=pk,
        fleet__faction__in=campaign.factions.all(),
    )
    if seen is not None and ship.fleet.faction_id not in seen:
        raise Http404("not your faction's ship")
    source = request.POST if request.method == "POST" else request.GET
    quote = error = None
    if "hull" in source:
        try:
            spec = {
                "hull": _int(request, "hull", source),
                "armour": _int(request, "armour", source),
                "crew": _int(request, "crew", source),
                "systems": source.getlist("systems"),
            }
            if request.method == "POST":
                repairs.repair_order(campaign=campaign, ship=ship, user=request.user, **spec)
                messages.success(request, _("Repairs ordered."))
                return redirect(ship.fleet.get_absolute_url())
            quote = repairs.repair_quote(campaign=campaign, ship=ship, user=request.user, **spec)
        except TurnActionError as exc:
            error = str(exc)
    return render(
        request,
        "turns/repair.html",
        {
            "campaign": campaign,
            "ship": ship,
            "quote": quote,
            "error": error,
            "values": source,
            # No form where an order could only be refused: the reason instead.
            "blocker": None if quote else repairs.repair_blocker(campaign, ship),
        },
    )


@_members_only
def build_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Order a construction: choose the faction (players: their own), yard, fleet and a
    class or squadron; GET with ``quote`` shows cost and turns, POST confirms."""
    campaign, seen = _campaign_for(request, slug)
    factions = campaign.factions.order_by("name")
    if seen is not None:
        factions = factions.filter(pk__in=seen)
    # A faction without a yard or a fleet gets the reason, not an empty form.
    blockers = building.build_blockers(list(factions))
    factions = [f for f in factions if f.pk not in blockers]
    ids = [f.pk for f in factions]
    source = request.POST if request.method == "POST" else request.GET
    quote = error = None
    if "faction" in source:
        try:
            if source.get("faction", "").isdigit() and int(source["faction"]) in blockers:
                raise TurnActionError(blockers[int(source["faction"])])
            faction = next((f for f in factions if str(f.pk) == source.get("faction")), None)
            if faction is None:
                raise TurnActionError(_("faction: choose one of your campaign's factions"))
            yard = Territory.objects.filter(pk=_int(request, "yard", source)).first()
            fleet = Fleet.objects.filter(pk=_int(request, "fleet", source)).first()
            if yard is None or fleet is None:
                raise TurnActionError(_("yard: choose a shipyard and a fleet"))
            what = source.get("what", "")
            spec = {"faction": faction, "yard": yard, "fleet": fleet}
            if what.startswith("class:"):
                spec["ship_class"] = ShipClass.objects.filter(pk=int(what[6:] or 0)).first()
                if spec["ship_class"] is None:
                    raise TurnActionError(_("what: unknown class"))
            else:
                kind, _sep, variant = what.partition(":")
                spec["light_kind"], spec["light_variant"] = kind, variant
            if request.method == "POST":
                building.construction_order(
                    campaign=campaign, user=request.user, name=source.get("name", ""), **spec
                )
                messages.success(request, _("Construction ordered."))
                return redirect("turn-page", slug=campaign.slug)
            quote = building.construction_quote(campaign=campaign, user=request.user, **spec)
        except (TurnActionError, ValueError) as exc:
            error = str(exc)
    return render(
        request,
        "turns/build.html",
        {
            "campaign": campaign,
            "factions": factions,
            "blockers": list(blockers.values()),
            "yards": Territory.objects.filter(
                faction_id__in=ids, shipyard_capacity__gt=0
            ).select_related("faction"),
            "fleets": Fleet.objects.filter(faction_id__in=ids).select_related("faction"),
            "classes": ShipClass.objects.filter(faction_id__in=ids)
            .select_related("faction")
            .order_by("faction__name", "mass"),
            "squadrons": [
                ("gunboat:heavy-transport", str(SEED_GUNBOAT_VARIANTS["heavy transport"])),
                ("gunboat:emp", str(SEED_GUNBOAT_VARIANTS["emp launcher"])),
            ]
            + [
                (f"{k}:", str(label))
                for k, label in LightUnitGroup.Kind.choices
                if k not in ("gunboat", "battery")
            ],
            "quote": quote,
            "error": error,
            "values": source,
        },
    )
