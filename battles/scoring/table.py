"""The standings by victory points a viewer may read: per faction (VP by reason, tonnage
destroyed and lost), per player, and the series per turn of the charts.

**What a viewer sees.** Victory points are the league's score: every award counts for
everyone (a battle's outcome is public once concluded). Tonnage and fleet strength follow
the fleets the viewer may see (``factions.access.visible_fleets``): a hidden fleet's
ships count neither in the mass destroyed or lost nor in the strength of its faction for
those who may not see it (its own players and the organisers do see it), so the public
pages and the site never add up a hidden fleet. A unit's fleet is the one it is in now, as
``battles.standings`` counts: a captured ship joins its captor's fleet, so it counts when
that fleet may be seen. Mass destroyed by a faction is the mass
of the ships lost by the other sides of its battles (``battles.scoring.awards``' reading of
"destroyed").
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Q, Sum

from battles.models import (
    Battle,
    BattleSide,
    Participant,
    ScoringRules,
    StrengthSnapshot,
    VictoryAward,
)
from battles.scoring.rules import rules_for
from battles.standings import LOST_FATES
from campaign.league.models import Campaign, Membership
from campaign.league.roles import User, campaign_roles
from factions.access import visible_fleets
from factions.models import Faction

R = VictoryAward.Reason
#: The columns of VP by reason: the outcome's three reasons count as "battles".
BY_REASON = {
    R.VICTORY: "battles_vp",
    R.DRAW: "battles_vp",
    R.DEFEAT: "battles_vp",
    R.OBJECTIVES: "objectives_vp",
    R.DESTROYED: "destroyed_vp",
    R.HOLDINGS: "holdings_vp",
}


@dataclass
class FactionScore:
    """A faction's line: ``vp`` (total) and its parts by reason, ``mass_destroyed`` and
    ``mass_lost`` (mass points of ships destroyed or captured, seen fleets only)."""

    faction: Faction
    vp: int = 0
    battles_vp: int = 0
    objectives_vp: int = 0
    destroyed_vp: int = 0
    holdings_vp: int = 0
    mass_destroyed: int = 0
    mass_lost: int = 0


@dataclass
class PlayerScore:
    """A player's line: their user name, the faction they play (None: no longer a
    player of one) and the VP of their shares."""

    name: str
    faction: Faction | None
    vp: int = 0


@dataclass
class Scoreboard:
    """Everything the standings page and the site show. ``turns``: the campaign turns on
    the charts' axis (1 to the last turn with an award or a close); ``vp_series``: per
    faction name, cumulative VP at the end of each of ``turns``; ``strength_turns``: the
    closed turns with a strength snapshot; ``points_series`` / ``mass_series``: per faction
    name, the construction points / mass of its seen fleets' active ships at each of
    them."""

    rules: ScoringRules
    factions: list[FactionScore]
    #: Empty for who is not a member of the campaign (:func:`scoreboard`).
    players: list[PlayerScore]
    turns: list[int] = field(default_factory=list)
    vp_series: list[tuple[str, list[int]]] = field(default_factory=list)
    strength_turns: list[int] = field(default_factory=list)
    points_series: list[tuple[str, list[int]]] = field(default_factory=list)
    mass_series: list[tuple[str, list[int]]] = field(default_factory=list)


def scoreboard(campaign: Campaign, *, user: User = None) -> Scoreboard:
    """``campaign``'s standings as ``user`` may read them (None: the public, as the site).
    The players' lines only for the campaign's members (and staff): user names are not
    published (the members list is the organisers'), so the public and the site read the
    factions' lines alone. Nine queries whatever the number of battles, awards, players
    and turns (plus the viewer's memberships)."""
    rules = rules_for(campaign)
    factions = {f.pk: FactionScore(f) for f in campaign.factions.all()}
    awards = list(
        VictoryAward.objects.filter(campaign=campaign)
        .values_list("faction_id", "membership_id", "reason", "turn")
        .annotate(p=Sum("points"))
        .order_by()
    )
    per_turn: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    per_member: dict[int, int] = defaultdict(int)
    for faction_id, member_id, reason, turn, points in awards:
        row = factions.get(faction_id)
        if row is not None:
            row.vp += points
            setattr(row, BY_REASON[reason], getattr(row, BY_REASON[reason]) + points)
            per_turn[faction_id][turn] += points
        if member_id is not None:
            per_member[member_id] += points
    seen = set(visible_fleets(user).values_list("pk", flat=True))
    _tonnage(campaign, factions, seen)
    board = Scoreboard(
        rules,
        sorted(factions.values(), key=lambda r: (-r.vp, r.faction.name)),
        _players(campaign, per_member, factions) if campaign_roles(user, campaign) else [],
    )
    last = max((t for _f, _m, _r, t, _p in awards), default=0)
    strength: dict[int, dict[int, tuple[int, int]]] = defaultdict(dict)
    for turn, faction_id, points, mass in (
        StrengthSnapshot.objects.filter(campaign=campaign, fleet_id__in=seen)
        .values_list("turn", "faction_id")
        .annotate(Sum("points"), Sum("mass"))
        .order_by("turn")
    ):
        strength[turn][faction_id] = (points, mass)
    board.strength_turns = sorted(strength)
    last = max([last, *board.strength_turns])
    board.turns = list(range(1, last + 1))
    for row in board.factions:
        name, pk, total, series = row.faction.name, row.faction.pk, 0, []
        for turn in board.turns:
            total += per_turn[pk].get(turn, 0)
            series.append(total)
        board.vp_series.append((name, series))
        at = [strength[t].get(pk, (0, 0)) for t in board.strength_turns]
        board.points_series.append((name, [p for p, _m in at]))
        board.mass_series.append((name, [m for _p, m in at]))
    return board


def _tonnage(campaign: Campaign, factions: dict[int, FactionScore], seen: set[int]) -> None:
    """Add to each faction the mass it lost and the mass its enemies lost in its concluded
    battles, counting ships of ``seen`` fleets only (two queries)."""
    concluded = {"battle__campaign": campaign, "battle__status": Battle.Status.CONCLUDED}
    sides: dict[int, list[int]] = defaultdict(list)
    for battle_id, faction_id in BattleSide.objects.filter(**concluded).values_list(
        "battle_id", "faction_id"
    ):
        sides[battle_id].append(faction_id)
    for battle_id, faction_id, mass, fleet_id in Participant.objects.filter(
        side__battle__campaign=campaign,
        side__battle__status=Battle.Status.CONCLUDED,
        fate__in=LOST_FATES,
        ship__isnull=False,
    ).values_list(
        "side__battle_id", "side__faction_id", "ship__ship_class__mass", "ship__fleet_id"
    ):
        if fleet_id not in seen:
            continue
        if faction_id in factions:
            factions[faction_id].mass_lost += mass
        for other in sides.get(battle_id, ()):
            if other != faction_id and other in factions:
                factions[other].mass_destroyed += mass


def _players(
    campaign: Campaign, per_member: dict[int, int], factions: dict[int, FactionScore]
) -> list[PlayerScore]:
    """A line per player of the campaign and per membership credited with points (its
    user name), by VP then name (one query)."""
    members = Membership.objects.filter(
        Q(campaign=campaign, role=Membership.Role.PLAYER) | Q(pk__in=list(per_member))
    ).select_related("user")
    rows = [
        PlayerScore(
            m.user.get_username(),
            factions[m.faction_id].faction
            if m.role == Membership.Role.PLAYER and m.faction_id in factions
            else None,
            per_member.get(m.pk, 0),
        )
        for m in members
    ]
    return sorted(rows, key=lambda r: (-r.vp, r.name))
