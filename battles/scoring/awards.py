"""Victory-point awards: written when a battle concludes and when a campaign turn closes,
deleted when either is reopened. The standings' totals are sums of these rows.

**Who is credited.** A faction's award is shared evenly among the campaign's members
playing that faction when it is written (the battle's conclusion, the turn's close):
``Membership`` rows with the player role and that faction, oldest first; the shares
differ by at most one point, the first players getting the points left over
(:func:`~battles.scoring.rules.share_of`). A faction without a player gets one row with no
membership. Battles have no per-person participants (units fight, not users), so "the
players of a side" are its faction's players at the conclusion.

**Battle turn.** A battle's awards count in its ``campaign_turn``, or the campaign's
current turn when it has none.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db.models import Count, F
from django.db.models.functions import Coalesce

from battles.models import Battle, BattleSide, Participant, ScoringRules, VictoryAward
from battles.scoring.rules import points_for, rules_for, share_of
from battles.standings import LOST_FATES
from campaign.league.models import Campaign, Membership
from campaign.starmap.models import StarSystem, TerritoryPlacement
from factions.models import Territory

R = VictoryAward.Reason


def players_of(campaign: Campaign, faction_ids: Iterable[int]) -> dict[int, list[int]]:
    """Membership ids of ``campaign``'s players per faction id, oldest membership first
    (one query)."""
    players: dict[int, list[int]] = defaultdict(list)
    for pk, faction_id in (
        Membership.objects.filter(
            campaign=campaign, role=Membership.Role.PLAYER, faction_id__in=list(faction_ids)
        )
        .order_by("pk")
        .values_list("pk", "faction_id")
    ):
        players[faction_id].append(pk)
    return players


def _shared(
    rules: ScoringRules,
    players: dict[int, list[int]],
    *,
    campaign: Campaign,
    faction_id: int,
    turn: int,
    reason: str,
    count: int,
    battle: Battle | None = None,
) -> list[VictoryAward]:
    """The rows of one faction's award, one per player (or one with no player)."""
    whole = points_for(rules, reason, count)
    members: list[int | None] = list(players.get(faction_id, ())) or [None]
    return [
        VictoryAward(
            campaign=campaign,
            faction_id=faction_id,
            membership_id=member,
            turn=turn,
            battle=battle,
            reason=reason,
            count=count,
            share=i,
            shares=len(members),
            points=share_of(whole, i, len(members)),
        )
        for i, member in enumerate(members)
    ]


def points_destroyed(battle: Battle) -> dict[int, int]:
    """Construction points (``ShipClass.points``; a class without points counts 0) of the
    ships each faction of ``battle`` destroyed or captured: per faction id, the points of
    the ships lost by every *other* side (a battle of three sides credits both enemies of
    a loser). Light units and other game systems' units carry no points and count 0. One
    query for the losses, one for the sides."""
    lost: dict[int, int] = defaultdict(int)
    for faction_id, points in Participant.objects.filter(
        side__battle=battle, fate__in=LOST_FATES, ship__isnull=False
    ).values_list("side__faction_id", Coalesce(F("ship__ship_class__points"), 0)):
        lost[faction_id] += points
    factions = list(BattleSide.objects.filter(battle=battle).values_list("faction_id", flat=True))
    total = sum(lost.values())
    return {f: total - lost.get(f, 0) for f in factions}


def battle_awards_write(battle: Battle) -> list[VictoryAward]:
    """Write the awards of concluded ``battle`` (any earlier ones of it are replaced): per
    side, its outcome (victory, draw — no winner — or defeat), its objectives met (when
    any) and the points it destroyed (when any, :func:`points_destroyed`), priced by the
    campaign's rules and shared among its players. Called inside the conclusion's
    transaction (``battles.scoring.receivers``). Returns the rows written."""
    VictoryAward.objects.filter(battle=battle).delete()
    campaign = battle.campaign
    rules = rules_for(campaign)
    sides = list(
        BattleSide.objects.filter(battle=battle).values_list("faction_id", "objectives_met")
    )
    players = players_of(campaign, [f for f, _n in sides])
    destroyed = points_destroyed(battle)
    turn = battle.campaign_turn or campaign.current_turn
    rows: list[VictoryAward] = []
    for faction_id, objectives in sides:
        if battle.winner_id is None:
            outcome = R.DRAW
        else:
            outcome = R.VICTORY if battle.winner_id == faction_id else R.DEFEAT
        counts = [
            (outcome, 1),
            (R.OBJECTIVES, objectives),
            (R.DESTROYED, destroyed.get(faction_id, 0)),
        ]
        for reason, count in counts:
            if count:
                rows += _shared(
                    rules, players, campaign=campaign, faction_id=faction_id, turn=turn,
                    reason=reason, count=count, battle=battle,
                )  # fmt: skip
    return VictoryAward.objects.bulk_create(rows)


def battle_awards_remove(battle: Battle) -> int:
    """Delete ``battle``'s awards (its reopen); returns how many rows went."""
    return VictoryAward.objects.filter(battle=battle).delete()[0]


def holdings_at_close(campaign: Campaign, turn: int) -> dict[int, int]:
    """What each faction of ``campaign`` holds when turn ``turn`` closes: faction id →
    number of holdings, factions holding none left out.

    A campaign with a star map counts **star systems**: a system is held by the faction
    holding every territory placed in it (``campaign.starmap``; none when it has no
    territory or several holders). A campaign without a map counts territories
    (``Territory.faction``). Read during the close itself (its signal), so the current
    holders are those at the close; ``turn`` names the close for the callers. Two queries
    at most."""
    placements = list(
        TerritoryPlacement.objects.filter(campaign=campaign).values_list(
            "system_id", "territory__faction_id"
        )
    )
    if placements or StarSystem.objects.filter(campaign=campaign).exists():
        holders: dict[int, set[int]] = defaultdict(set)
        for system_id, faction_id in placements:
            holders[system_id].add(faction_id)
        held: dict[int, int] = defaultdict(int)
        for factions in holders.values():
            if len(factions) == 1:
                held[next(iter(factions))] += 1
        return dict(held)
    return dict(
        Territory.objects.filter(faction__in=campaign.factions.all())
        .values("faction_id")
        .annotate(n=Count("pk"))
        .values_list("faction_id", "n")
    )


def turn_awards_write(campaign: Campaign, turn: int) -> list[VictoryAward]:
    """Write the holding awards of turn ``turn``'s close (:func:`holdings_at_close`,
    ``per_holding`` VP a territory), shared among each faction's players; earlier holding
    awards of that turn are replaced. Returns the rows written."""
    turn_awards_remove(campaign, turn)
    rules = rules_for(campaign)
    held = holdings_at_close(campaign, turn)
    players = players_of(campaign, held)
    rows: list[VictoryAward] = []
    for faction_id, count in sorted(held.items()):
        rows += _shared(
            rules, players, campaign=campaign, faction_id=faction_id, turn=turn,
            reason=R.HOLDINGS, count=count,
        )  # fmt: skip
    return VictoryAward.objects.bulk_create(rows)


def turn_awards_remove(campaign: Campaign, turn: int) -> int:
    """Delete the holding awards of turn ``turn``'s close (its reopen); returns the count.
    Battle awards of that turn stay: they go with their battle's reopen."""
    return VictoryAward.objects.filter(
        campaign=campaign, turn=turn, reason=R.HOLDINGS, battle__isnull=True
    ).delete()[0]
