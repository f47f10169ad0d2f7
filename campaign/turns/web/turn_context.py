"""What the campaign turn page shows (``templates/turns/turn.html``), read in a fixed number
of queries whatever the number of turns, ships, orders and battles.

Work done once: the viewer's scope comes from the view (``require_faction_scope``, whose
None — every faction — is exactly an organiser's, staff's or the system's), so no role is
looked up again; the turns the page names (open, last closed, the one a reopen would
discard) are one query; an organiser's yard queues are the close
preview's rows (``closing.turn_plan`` reads them all), not read a second time; the
movement form's fleets and territories are read only for a campaign without a star map
(with one, the page links to the map instead).
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django.db.models import Q
from django.utils import timezone

from campaign.league.models import Campaign
from campaign.starmap.models import StarSystem
from campaign.turns import building, closing, moves, treasury
from campaign.turns.access import summary_scoped
from campaign.turns.models import CampaignTurn, Construction, LedgerEntry, RepairOrder

LEDGER_ROWS = 50


def campaign_turns(
    campaign: Campaign,
) -> tuple[CampaignTurn | None, CampaignTurn | None, CampaignTurn | None]:
    """``(open turn, last closed turn, the open turn a reopen would discard)`` of
    ``campaign`` (each None when there is none), as ``closing.open_turn`` and
    ``closing.discarded_by_reopen`` define them; one query (the undo records left out)."""
    last_closed = (
        campaign.turns.filter(status=CampaignTurn.Status.CLOSED)
        .order_by("-number")
        .values("pk")[:1]
    )
    rows = list(
        campaign.turns.filter(Q(status=CampaignTurn.Status.OPEN) | Q(pk__in=last_closed))
        .defer("undo")
        .order_by("number")
    )
    opened = [t for t in rows if t.status == CampaignTurn.Status.OPEN]
    last = next((t for t in rows if t.status == CampaignTurn.Status.CLOSED), None)
    turn = opened[-1] if opened else None
    discards = None
    if last is not None:
        discards = next((t for t in opened if t.number > last.number), None)
    return turn, last, discards


def _queues(
    campaign: Campaign, ids: set[int], plan: closing.TurnPlan | None
) -> tuple[list[RepairOrder], list[Construction]]:
    """The queued repair orders (by yard name, position, pk) and constructions (the
    model's order) of the factions ``ids``; the orders are ``plan``'s when given (it
    holds all the campaign's, read with their ships' fleets), else read."""
    if plan is not None:
        orders = [o for o, _got, _done in plan.repairs if o.ship.fleet.faction_id in ids]
        orders.sort(key=lambda o: (o.yard.name, o.position, o.pk))
    else:
        orders = list(
            RepairOrder.objects.filter(
                campaign=campaign,
                status=RepairOrder.Status.QUEUED,
                ship__fleet__faction_id__in=ids,
            )
            .select_related("ship__ship_class", "yard")
            .order_by("yard__name", "position", "pk")
        )
    builds = Construction.objects.filter(
        campaign=campaign, faction_id__in=ids, status=Construction.Status.QUEUED
    ).select_related("yard", "fleet", "ship_class", "faction")
    return orders, list(builds)


def turn_context(campaign: Campaign, seen: set[int] | None, user) -> dict:
    """What the turn page shows, scoped to the factions ``seen`` (None: all — the view's
    ``require_faction_scope``, None exactly for organisers, staff and the system)."""
    organiser = seen is None
    factions = campaign.factions.order_by("name")
    if seen is not None:
        factions = factions.filter(pk__in=seen)
    factions = list(factions)
    ids = {f.pk for f in factions}
    balances = treasury.treasury_balances(campaign=campaign, faction_ids=ids)
    ledger = LedgerEntry.objects.filter(campaign=campaign, faction_id__in=ids).select_related(
        "faction", "user"
    )
    turn, last, discards = campaign_turns(campaign)
    plan = closing.turn_plan(campaign=campaign) if organiser and turn is not None else None
    orders, builds = _queues(campaign, ids, plan)
    yards: dict[str, list] = {}
    for o in orders:
        yards.setdefault(o.yard.name, []).append(o)
    tz = ZoneInfo(campaign.time_zone)
    deadline = timezone.localtime(turn.deadline, tz) if turn and turn.deadline else None
    has_starmap = StarSystem.objects.filter(campaign=campaign).exists()
    return {
        "campaign": campaign,
        "turn": turn,
        "last_closed": last,
        # Reopening the last closed turn removes the turn opened after it: say which.
        "reopen_discards": discards if organiser else None,
        # What the viewer may read of it: their factions' yards and income, public losses.
        "last_summary": summary_scoped(user, last.summary, own=seen) if last else None,
        "deadline_local": deadline,
        "deadline_input": deadline.strftime("%Y-%m-%dT%H:%M") if deadline else "",
        "organiser": organiser,
        "plan": plan,
        "treasuries": [(f, balances.get(f.pk, treasury.Balance())) for f in factions],
        "ledger": list(ledger.order_by("-pk")[:LEDGER_ROWS]),
        "yards": sorted(yards.items()),
        "builds": [(c, building.construction_refund(c)) for c in builds],
        "factions": factions,
        "has_starmap": has_starmap,
        # With a star map the moves are ordered on its page: no form here, nothing to read.
        **({} if has_starmap else moves.fleets_and_orders(campaign, ids)),
    }
