"""Battle pages that act: set up, preview and conclude the auto-resolve,
record from the table, confirm, reopen. Thin: look up and scope through
the ``access`` helpers, call ``battles.services``, render.

Who: anonymous users are sent to the login page; users with no role in the battle's
campaign get 404 (another campaign's objects do not exist for them); members without the
right get 403. Organisers act on their campaign; a player submits their side's record.
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from battles.access import actionable_battles, played_side_ids
from battles.briefing import battle_briefing
from battles.log.lines import event_line
from battles.log.names import log_names
from battles.models import Battle, Participant, RecordEntry
from battles.models.turn_orders import TurnPlay
from battles.services import (
    BattleActionError,
    SideSpec,
    battle_create,
    battle_reopen,
    battle_reseed,
    battle_resolve,
    battle_resolve_preview,
    record_confirm,
    record_reject,
    record_submit,
    ships_held_by_battles,
)
from battles.services.common import battle_sides
from battles.services.forecast import battle_forecast
from battles.web.forms import (
    BattleSetupForm,
    ReasonForm,
    RecordFormSet,
    RecordSummaryForm,
    system_choice_label,
)
from campaign.core.messages import render as render_message
from campaign.core.refusals import Refused
from campaign.core.validation import TextError
from campaign.league.models import Campaign, Membership
from campaign.league.roles import require_member, require_organiser
from factions.ssd.draw import system_labels

#: Battles the preview page's forecast fights (about 10 ms each).
PAGE_FORECAST_BATTLES = 100


def _battle(request: HttpRequest, pk: int) -> tuple[Battle, set[str]]:
    """The battle and the user's roles in its campaign; 404 for non-members and for
    battles the user may not act on or see."""
    battle = get_object_or_404(actionable_battles(request.user).select_related("campaign"), pk=pk)
    return battle, require_member(request.user, battle.campaign)


def _organiser(request: HttpRequest, pk: int) -> Battle:
    battle, _roles = _battle(request, pk)
    require_organiser(
        request.user, battle.campaign, _("Only the campaign's organisers may do this.")
    )
    return battle


#: Where a set-up goes, by the mode chosen on its form: the auto-resolve preview, the
#: record form, or the turn page (where the organiser starts the play: seed, turn cap,
#: deadlines).
_MODE_PAGES = {
    Battle.Mode.RESOLVED: "battle-resolve",
    Battle.Mode.RECORDED: "battle-record",
    Battle.Mode.TURNS: "battle-turns",
}


@login_required
def battle_setup(request: HttpRequest, slug: str) -> HttpResponse:
    """Set up a battle of the campaign (organisers)."""
    campaign = get_object_or_404(Campaign, slug=slug)
    require_organiser(
        request.user, campaign, _("Only the campaign's organisers may set up battles.")
    )
    if request.method == "POST" and "choose_sides" not in request.POST:
        form = BattleSetupForm(request.POST, campaign=campaign)
    else:
        # Choosing the sides (htmx on a side's change, or the button without script)
        # shows the form again, unchecked, with only those sides' units offered.
        values = request.POST if request.method == "POST" else request.GET
        form = BattleSetupForm(
            initial={
                k: values.getlist(k) if k in ("ships", "light_units") else values.get(k)
                for k in BattleSetupForm.base_fields
                if k in values
            },
            campaign=campaign,
        )
    if form.is_bound and form.is_valid():
        d = form.cleaned_data
        sides = []
        for key in ("a", "b"):
            faction = d[f"faction_{key}"]
            sides.append(
                SideSpec(
                    faction=faction,
                    fleet=next(
                        (s.fleet for s in d["ships"] if s.fleet.faction_id == faction.pk), None
                    ),
                    primary_objective=d[f"primary_{key}"],
                    secondary_objectives=d[f"secondary_{key}"],
                    ships=[s.pk for s in d["ships"] if s.fleet.faction_id == faction.pk],
                    light_units=[g.pk for g in d["light_units"] if g.faction_id == faction.pk],
                )
            )
        try:
            battle = battle_create(
                campaign=campaign,
                name=d["name"],
                campaign_turn=d["campaign_turn"],
                territory=d["territory"],
                system=d["system"],
                scenario=d["scenario"],
                sides=sides,
                user=request.user,
            )
        except BattleActionError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Battle set up: %(name)s") % {"name": battle.name})
            return redirect(_MODE_PAGES[d["mode"] or Battle.Mode.RESOLVED], pk=battle.pk)
    held = ships_held_by_battles(campaign=campaign)
    return render(request, "battles/setup.html", {"form": form, "campaign": campaign, "held": held})


def _preview_rows(preview: Any, sides: list) -> list[dict[str, Any]]:
    """One row a unit: side, name, this battle's losses and fate, and the state it would
    be left in (hull boxes left of the class's, craft left)."""
    units = {p.pk: (side, p) for side in sides for p in side.participants.all()}
    rows = []
    for r in preview.conclusion.results:
        side, p = units[r.participant]
        if p.ship_id:
            total = p.ship.ship_class.hull_boxes
            left = 0 if r.fate == "destroyed" else max(0, total - p.ship.hull_lost - r.hull_lost)
        else:
            total, left = p.light_units.size, p.light_units.strength - r.craft_lost
        rows.append(
            {"side": side.faction.name, "name": str(p.ship or p.light_units), "r": r,
             "fate": Participant.Fate(r.fate).label, "left": f"{left}/{total}"}
        )  # fmt: skip
    return rows


@login_required
def battle_resolve_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The auto-resolve preview (outcome, every unit's new state, the log) and the
    actions: draw a first seed, re-run with another seed (reason required), conclude."""
    battle = _organiser(request, pk)
    reason_form = ReasonForm(request.POST or None)
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "seed":
                battle_reseed(battle=battle, reason="", user=request.user)
            elif action == "reseed":
                if not reason_form.is_valid():
                    raise BattleActionError(_("A written reason is needed to re-run."))
                battle_reseed(
                    battle=battle, reason=reason_form.cleaned_data["reason"], user=request.user
                )
            elif action == "conclude":
                if str(battle.seed) != request.POST.get("seed"):
                    raise BattleActionError(
                        _("The preview you saw is out of date; look at it again.")
                    )
                battle_resolve(battle=battle, seed=battle.seed, user=request.user)
                messages.success(request, _("Battle concluded."))
                return redirect(battle)
            else:
                raise BattleActionError(_("Unknown action."))
        except BattleActionError as exc:
            messages.error(request, str(exc))
        return redirect("battle-resolve", pk=battle.pk)
    preview = error = None
    sides = battle_sides(battle)
    if battle.status == Battle.Status.DRAFT and battle.seed is not None:
        try:
            preview = battle_resolve_preview(battle=battle, seed=battle.seed)
        except BattleActionError as exc:
            error = str(exc)
    log = []
    if preview:
        # The log in the reader's language (battles/log/lines.py), as the report prints it.
        events = [SimpleNamespace(**e) for e in preview.conclusion.events]
        names = log_names(events, {s.faction.slug: s.faction.name for s in sides})
        log = [
            {"game_turn": e.game_turn, "phase": e.phase, "summary": event_line(e, names)}
            for e in events
            if e.kind != "roll"
        ]
    return render(
        request,
        "battles/resolve.html",
        {
            "battle": battle,
            "campaign": battle.campaign,
            "preview": preview,
            "rows": _preview_rows(preview, sides) if preview else [],
            "log": log,
            "error": error,
            "reason_form": ReasonForm(),
            "forecast_battles": PAGE_FORECAST_BATTLES,
        },
    )


@login_required
def battle_forecast_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    """The forecast of who wins over many battles (an htmx fragment of the preview)."""
    battle = _organiser(request, pk)
    try:
        forecast = battle_forecast(battle=battle, battles=PAGE_FORECAST_BATTLES, seed=0)
        names = dict(battle.sides.values_list("faction__slug", "faction__name"))
        outcomes = [
            {**o, "side": names.get(o["side"], o["side"]) if o["side"] else None}
            for o in forecast.as_dict()["outcomes"]
        ]
        error = None
    except BattleActionError as exc:
        outcomes, error = [], str(exc)
    return render(
        request,
        "battles/_forecast.html",
        {"outcomes": outcomes, "error": error, "battles": PAGE_FORECAST_BATTLES},
    )


# The path heads the message in either language ("….hull_lost:" / "….hull_lost :").
_WHERE = re.compile(r"results\[(\d+)\][^.]*?(?:\)\))?\.(\w+)\s*:")


def _entry_row(
    result: dict[str, Any], names: dict[int, str], systems: dict[int, dict[str, str]]
) -> dict[str, Any]:
    """One unit of a submitted record entry as the record page lists it: name, fate in
    the reader's language, hull/armour/crew boxes and craft lost, systems destroyed (by
    their SSD labels, ``systems``: participant -> id -> label)."""
    fate = result.get("fate", "unharmed")
    labels = systems.get(result.get("participant"), {})
    return {
        "name": names.get(result.get("participant"), f"#{result.get('participant')}"),
        "fate": Participant.Fate(fate).label if fate in Participant.Fate.values else fate,
        "hull_lost": result.get("hull_lost", 0),
        "armour_lost": result.get("armour_lost", 0),
        "crew_lost": result.get("crew_lost"),
        "craft_lost": result.get("craft_lost", 0),
        "systems_lost": [
            system_choice_label(str(s), labels) for s in result.get("systems_lost") or []
        ],
    }


@login_required
def battle_record_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Record a battle played on the table: one row a unit of the user's side (every
    side for organisers), the outcome and narrative; entries waiting for confirmation
    with confirm / reject buttons for those who may."""
    battle, roles = _battle(request, pk)
    organiser = Membership.Role.ORGANISER in roles
    own = played_side_ids(request.user, battle)
    if not organiser and not own:
        raise Refused(_("Only the organisers and the players of a side may record."))
    if battle.status != Battle.Status.DRAFT:
        messages.info(request, _("This battle is concluded."))
        return redirect(battle)
    if TurnPlay.objects.filter(battle_id=battle.pk, ended=False).exists():
        # Its result comes from both sides' orders: no record form meanwhile.
        messages.error(
            request,
            _(
                "This battle is being fought turn by turn: it cannot be recorded from the "
                "table until its play ends."
            ),
        )
        return redirect("battle-turns", pk=battle.pk)
    sides = battle_sides(battle)
    mine = [s for s in sides if organiser or s.pk in own]
    participants = [p for s in mine for p in s.participants.all()]
    formset = RecordFormSet(request.POST or None, participants=participants, prefix="unit")
    summary = RecordSummaryForm(request.POST or None, battle=battle, prefix="battle")
    side = None if organiser or len(mine) != 1 else mine[0]
    if request.method == "POST" and formset.is_valid() and summary.is_valid():
        results = [f.result() for f in formset.forms]
        d = summary.cleaned_data
        try:
            record_submit(
                battle=battle,
                side=side,
                results=results,
                user=request.user,
                outcome=d["outcome"],
                winner=d["winner"] or None,
                game_turns=d["game_turns"],
                narrative=d["narrative"],
            )
        except BattleActionError as exc:
            match = _WHERE.search(str(exc))
            if match and int(match.group(1)) < len(formset.forms):
                form = formset.forms[int(match.group(1))]
                field = match.group(2) if match.group(2) in form.fields else None
                # Under its own field the error needs no "results[i] (…).field:" path.
                form.add_error(field, str(exc)[match.end() :].strip() if field else str(exc))
            else:
                summary.add_error(None, str(exc))
        else:
            messages.success(
                request,
                _("Entry submitted; as organiser you may confirm it yourself below.")
                if side is None
                else _("Entry submitted; it waits for confirmation."),
            )
            return redirect("battle-record", pk=battle.pk)
    entries = list(
        RecordEntry.objects.filter(
            battle=battle, status=RecordEntry.Status.SUBMITTED
        ).select_related("side__faction", "submitted_by", "winner__faction")
    )
    # What each entry says, so that whoever confirms it reads it first.
    names = {p.pk: str(p.ship or p.light_units) for s in sides for p in s.participants.all()}
    systems = {
        p.pk: system_labels(p.ship.ship_class.design or {})
        for s in sides
        for p in s.participants.all()
        if p.ship_id
    }
    for e in entries:
        e.can_confirm = organiser or bool(own - {e.side_id}) and e.side_id is not None
        e.rows = [_entry_row(r, names, systems) for r in e.results]
        e.winner_name = e.winner.faction.name if e.winner_id else ""
    # The user's own entry waiting for confirmation replaces the blank form, so
    # it is not typed twice: the page says who confirms it and offers to withdraw it.
    pending = next((e for e in entries if e.side_id == (side.pk if side else None)), None)
    if pending is not None and (side is not None or organiser):
        pending.confirmers = [s.faction.name for s in sides if s.pk != pending.side_id]
    else:
        pending = None
    return render(
        request,
        "battles/record.html",
        {
            "battle": battle,
            "campaign": battle.campaign,
            "formset": formset,
            "summary": summary,
            "entries": entries,
            "side": side,
            "pending": pending,
            "organiser": organiser,
            "briefing": battle_briefing(battle, request.user),
        },
    )


@require_POST
@login_required
def record_entry_decide(request: HttpRequest, pk: int, entry: int, decision: str) -> HttpResponse:
    """Confirm or reject a submitted record entry: the organiser, or a player of another
    side than the entry's."""
    if decision not in ("confirm", "reject", "withdraw"):
        raise Http404
    battle, roles = _battle(request, pk)
    entry_obj = get_object_or_404(RecordEntry, pk=entry, battle=battle)
    own = played_side_ids(request.user, battle)
    organiser = Membership.Role.ORGANISER in roles
    if decision == "withdraw":
        # Its own side (or an organiser) takes an entry back to enter it again.
        if not (organiser or entry_obj.side_id in own):
            raise Refused(_("Only the entry's side or the organisers may withdraw it."))
    elif not (organiser or (entry_obj.side_id is not None and bool(own - {entry_obj.side_id}))):
        raise Refused(_("Only the organisers or the other side may confirm."))
    try:
        if decision == "confirm":
            record_confirm(entry=entry_obj, user=request.user)
        elif decision == "withdraw":
            if not request.POST.get("confirm"):  # the form's "I confirm" box
                raise BattleActionError(_("Tick “I confirm” to go on; nothing was done."))
            record_reject(
                entry=entry_obj,
                user=request.user,
                reason=f"entry {entry_obj.pk} withdrawn by its side",
                withdraw=True,
            )
        else:
            record_reject(entry=entry_obj, user=request.user)
    except BattleActionError as exc:
        messages.error(request, str(exc))
        return redirect("battle-record", pk=battle.pk)
    battle.refresh_from_db()
    if battle.status == Battle.Status.CONCLUDED:
        messages.success(request, _("Every side is confirmed: the battle is concluded."))
        return redirect(battle)
    if decision == "withdraw":
        messages.success(request, _("Entry withdrawn; you may submit a new one."))
    elif decision == "reject":
        messages.success(request, _("Entry rejected; its side may submit a new one."))
    else:
        messages.success(request, _("Entry confirmed; the battle waits for the other entries."))
    return redirect("battle-record", pk=battle.pk)


@require_POST
@login_required
def battle_reopen_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Reopen a concluded battle (organisers): every ship as before it."""
    battle = _organiser(request, pk)
    try:
        reopened = battle_reopen(
            battle=battle, user=request.user, reason=request.POST.get("reason", "")
        )
    except BattleActionError as exc:
        messages.error(request, str(exc))
    except TextError as exc:  # a reason no column can store: nothing was changed
        messages.error(request, exc.messages[0])
    else:
        done = _("Battle reopened: every ship is as before it.")
        if reopened.repairs_refunded:
            done = f"{done} {capfirst(render_message(reopened.repairs_refunded))}."
        messages.success(request, done)
    return redirect(battle)
