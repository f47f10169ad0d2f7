"""Pages of turn-by-turn battles and the replay viewer: thin
views that scope through the ``access`` helpers and call ``battles.play`` services.

Who may do what: the campaign's organisers (and staff) start play, set the deadline, play
a turn now and end the battle; a player of one side orders that side's ships; everyone
who may see the battle (``actionable_battles``: a draft only its organisers and the
players of its sides) sees the board as ``battle_perspective`` allows. Another
campaign's draft answers 404; a user who may see it but not act answers 403.
"""

from __future__ import annotations

from datetime import UTC, timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from battles.access import actionable_battles, battle_side_slug
from battles.briefing import battle_briefing
from battles.models import Battle, BattleSide
from battles.models.turn_orders import TurnPlay
from battles.play.contacts import submit_side_orders
from battles.play.context import (
    battle_viewer,
    board_for,
    contact_keys,
    odds_panel,
    phase_names,
    turn_context,
)
from battles.play.forms import movement_preview, order_sheet, orders_from_form
from battles.play.game_turns import (
    turn_deadline_set,
    turn_play_advance,
    turn_play_end,
    turn_play_start,
    turn_state,
)
from battles.services import BattleActionError
from campaign.core.refusals import Refused
from campaign.league.roles import require_member, require_organiser


def _battle(request: HttpRequest, pk: int) -> Battle:
    return get_object_or_404(actionable_battles(request.user).select_related("campaign"), pk=pk)


def _turn_url(battle: Battle) -> str:
    return reverse("battle-turns", kwargs={"pk": battle.pk})


def _render_turns(
    request: HttpRequest, battle: Battle, *, error: str = "", posted=None, status: int = 200
) -> HttpResponse:
    context = turn_context(battle, request.user, posted=posted)
    context["error"] = error
    context["campaign"] = battle.campaign
    play = context.get("play")
    # Shown, never played here: the scheduled task plays due turns.
    context["deadline_passed"] = bool(
        play and not play.ended and play.deadline and play.deadline <= timezone.now()
    )
    context["odds"] = odds_panel(battle, request.user, context["board"], viewer=context["viewer"])
    context["briefing"] = battle_briefing(battle, request.user)
    return render(request, "battles/turn_page.html", context, status=status)


def battle_turns(request: HttpRequest, pk: int) -> HttpResponse:
    """The turn page: board, orders form (players of a side), organiser controls. Reads
    only: a turn whose deadline has passed is played by the scheduled task
    (``battles.play.tasks``), the page says it is due."""
    battle = _battle(request, pk)
    play = TurnPlay.objects.filter(battle=battle).first()
    if play is None and battle.status == Battle.Status.CONCLUDED:
        return redirect("battle-replay", pk=battle.pk)
    return _render_turns(request, battle)


def _organiser_battle(request: HttpRequest, pk: int) -> Battle:
    battle = _battle(request, pk)
    require_organiser(
        request.user, battle.campaign, _("Only the campaign's organisers may do this.")
    )
    return battle


def _deadline(text: str):
    if not text:
        return None
    value = parse_datetime(text)
    if value is None:
        raise BattleActionError(_("deadline: %(text)r is not a date and time") % {"text": text})
    return value if timezone.is_aware(value) else value.replace(tzinfo=UTC)


def _whole(name: str, text: str, default: int | None) -> int | None:
    if not text.strip():
        return default
    try:
        return int(text)
    except ValueError:
        raise BattleActionError(
            _("%(field)s: %(value)r is not a whole number") % {"field": name, "value": text}
        ) from None


def _hours(text: str) -> timedelta | None:
    """The start form's hours for each turn (empty: none), refused when not a whole
    number (the service refuses one out of range)."""
    hours = _whole("turn_interval_hours", text, None)
    return None if hours is None else timedelta(hours=hours)


@require_POST
@login_required  # before the lookup: after a logout, the login page, not a 404
def battle_turns_start(request: HttpRequest, pk: int) -> HttpResponse:
    """Organiser: start turn-by-turn play (seed, turn cap, deadline of turn 1)."""
    battle = _organiser_battle(request, pk)
    try:
        turn_play_start(
            battle=battle,
            user=request.user,
            seed=_whole("seed", request.POST.get("seed", ""), None),
            max_turns=_whole("max_turns", request.POST.get("max_turns", ""), 20),
            deadline=_deadline(request.POST.get("deadline", "")),
            turn_interval=_hours(request.POST.get("turn_interval_hours", "")),
        )
    except BattleActionError as exc:
        return _render_turns(request, battle, error=str(exc), status=400)
    messages.success(request, _("Turn-by-turn play started: the sides may give their orders."))
    return redirect(_turn_url(battle))


@require_POST
@login_required  # before the lookup: after a logout, the login page, not a 404
def battle_turns_control(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """Organiser: ``deadline`` (set or clear), ``play`` (the turn now, auto tactics for a
    side without orders), ``end`` (judge and conclude now)."""
    battle = _organiser_battle(request, pk)
    try:
        if action == "deadline":
            turn_deadline_set(
                battle=battle,
                user=request.user,
                deadline=_deadline(request.POST.get("deadline", "")),
            )
            done = _("Deadline saved.")
        elif action == "play":
            if not request.POST.get("confirm"):  # the form's "I confirm" box
                raise BattleActionError(
                    _("Tick “I confirm” to play the turn now; nothing was done.")
                )
            turn_play_advance(battle=battle, force=True, user=request.user)
            done = _("The turn was played; a side without orders followed the auto tactics.")
        elif action == "end":
            if not request.POST.get("confirm"):  # the form's "I confirm" box
                raise BattleActionError(_("Tick “I confirm” to end the battle; nothing was done."))
            turn_play_end(battle=battle, user=request.user)
            done = _("The battle was ended and concluded.")
        else:
            raise Http404
    except BattleActionError as exc:
        return _render_turns(request, battle, error=str(exc), status=400)
    messages.success(request, done)
    return redirect(_turn_url(battle))


def _own_side(request: HttpRequest, battle: Battle) -> BattleSide | None:
    """The side the user plays (None: a member who plays none); not found for anyone
    outside the battle's campaign."""
    require_member(request.user, battle.campaign)
    slug = battle_side_slug(request.user, battle)
    if slug is None:
        return None
    return BattleSide.objects.select_related("faction").get(battle=battle, faction__slug=slug)


@require_POST
@login_required  # before the lookup: after a logout, the login page, not a 404
def battle_turns_orders(request: HttpRequest, pk: int) -> HttpResponse:
    """A player: their side's orders for the current turn (replacing earlier ones)."""
    battle = _battle(request, pk)
    side = _own_side(request, battle)
    if side is None:
        raise Refused(_("Only a player of a side of this battle may give orders."))
    play = get_object_or_404(TurnPlay, battle=battle)
    keys = contact_keys(battle, battle_viewer(battle, request.user), play.setup["data"])
    orders = None
    try:
        sheet = order_sheet(turn_state(play=play), side.faction.slug)
        orders = orders_from_form(request.POST, sheet)
        submit_side_orders(battle=battle, side=side, orders=orders, keys=keys, user=request.user)
    except BattleActionError as exc:
        error = keys.refusal(exc)
        return _render_turns(request, battle, error=error, posted=orders, status=400)
    messages.success(request, _orders_saved_text(play))
    return redirect(_turn_url(battle))


def _orders_saved_text(play: TurnPlay) -> str:
    """The flash after a side's orders: whether they completed the turn (it was played,
    maybe ending the battle) or wait for the other side's. ``play`` as read before."""
    before = play.turns_played
    play.refresh_from_db(fields=["turns_played", "ended"])
    if play.turns_played == before:
        return _("Orders saved; the other side sees them only once both sides' are in.")
    if play.ended:
        return _("Orders saved; turn %(turn)s was played and the battle is over.") % {
            "turn": play.turns_played
        }
    return _("Orders saved; turn %(turn)s was played.") % {"turn": play.turns_played}


@require_POST
@login_required  # before the lookup: after a logout, the login page, not a 404
def battle_turns_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """htmx: the movement typed for one of the player's ships, checked against its thrust
    and drawn (fragment ``battles/_movement_preview.html``)."""
    battle = _battle(request, pk)
    side = _own_side(request, battle)
    play = get_object_or_404(TurnPlay, battle=battle, ended=False)
    if side is None:
        raise Refused(_("Only a player of a side of this battle may give orders."))
    ship_id = request.POST.get("ship", "")
    state = turn_state(play=play)
    ship = state.ships.get(ship_id)
    if ship is None or ship.side != side.faction.slug or ship.out_of_action:
        raise Http404
    preview = movement_preview(state, ship_id, request.POST.get(f"movement-{ship_id}", ""))
    return render(request, "battles/_movement_preview.html", {"p": preview, "ship_id": ship_id})


def battle_replay(request: HttpRequest, pk: int) -> HttpResponse:
    """The replay viewer: the board per turn and phase, fire lines and the log, as the
    user's side saw it (organisers: everything; others: what a neutral would see)."""
    battle = _battle(request, pk)
    if not battle.events.exists():
        raise Http404
    viewer = battle_viewer(battle, request.user)
    board = board_for(battle, viewer)
    return render(
        request,
        "battles/replay.html",
        {
            "battle": battle,
            "campaign": battle.campaign,
            "board": board,
            "viewer": viewer,
            "odds": odds_panel(battle, request.user, board),
            "phase_names": phase_names(),
        },
    )
