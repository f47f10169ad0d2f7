"""Setting up a battle: the units an organiser may field, and the
battle, its sides and participants created in one transaction."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils.text import slugify
from django.utils.translation import gettext as _

from battles.models import Battle, BattleAction, BattleSide, Participant
from battles.services.common import BattleActionError
from battles.services.permissions import require_battle_organiser
from campaign.core import limits
from campaign.core.messages import message, text_of
from campaign.league.models import Campaign
from campaign.starmap.models import StarSystem
from campaign.turns.repairs import ships_under_repair
from factions.models import Faction, Fleet, LightUnitGroup, Ship, Territory

__all__ = ["SideSpec", "battle_create", "eligible_light_units", "eligible_ships"]


def _held(exclude_battle: Battle | None) -> QuerySet[Participant]:
    qs = Participant.objects.filter(side__battle__status=Battle.Status.DRAFT)
    if exclude_battle is not None:
        qs = qs.exclude(side__battle=exclude_battle)
    return qs


def eligible_ships(
    *,
    campaign: Campaign,
    faction: Faction | None = None,
    exclude_battle: Battle | None = None,
    system: StarSystem | None = None,
) -> QuerySet[Ship]:
    """Ships that may be set up in a battle of ``campaign``: of the fleets of its factions
    (``faction`` only, if given; only fleets in ``system`` of the star map, if given),
    neither destroyed nor captured, and in no unconcluded
    battle (other than ``exclude_battle``). Ordered by faction, fleet, mass, name; class,
    fleet, its faction and squadron loaded. Ships with an open repair order are left out
    too (``campaign.turns.repairs``)."""
    qs = Ship.objects.filter(fleet__faction__in=campaign.factions.all()).exclude(
        status__in=[Ship.Status.DESTROYED, Ship.Status.CAPTURED]
    )
    if faction is not None:
        qs = qs.filter(fleet__faction=faction)
    if system is not None:
        qs = qs.filter(fleet__position__system=system)
    held = _held(exclude_battle).filter(ship__isnull=False).values("ship_id")
    # A ship under repair at a yard cannot join a battle (campaign.turns.repairs).
    under_repair = ships_under_repair(campaign=campaign).values("pk")
    return (
        qs.exclude(pk__in=held)
        .exclude(pk__in=under_repair)
        .select_related("ship_class", "fleet__faction", "squadron")
        .order_by("fleet__faction__name", "fleet__name", "-ship_class__mass", "name", "pk")
    )


def eligible_light_units(
    *, campaign: Campaign, faction: Faction | None = None, exclude_battle: Battle | None = None
) -> QuerySet[LightUnitGroup]:
    """Light-unit groups that may join a battle of ``campaign``: carried squadrons, and
    the defences of stations and colonies (fighters based there, batteries), with craft
    left, in no unconcluded battle (other than ``exclude_battle``)."""
    qs = LightUnitGroup.objects.filter(faction__in=campaign.factions.all(), strength__gt=0).exclude(
        carrier__status__in=[Ship.Status.DESTROYED, Ship.Status.CAPTURED]
    )
    if faction is not None:
        qs = qs.filter(faction=faction)
    held = _held(exclude_battle).filter(light_units__isnull=False).values("light_units_id")
    return (
        qs.exclude(pk__in=held)
        .select_related("carrier__ship_class", "territory", "fleet")
        .order_by("faction__name", "name", "pk")
    )


@dataclass
class SideSpec:
    """One side to set up: the faction, its fleet (optional), objectives, and the ids of
    the ships and light-unit groups it fields."""

    faction: Faction
    fleet: Fleet | None = None
    primary_objective: str = ""
    secondary_objectives: str = ""
    ships: Sequence[int] = field(default_factory=list)
    light_units: Sequence[int] = field(default_factory=list)


def _unique_slug(campaign: Campaign, name: str) -> str:
    base = slugify(name)[:180] or "battle"
    slug, n = base, 1
    while Battle.objects.filter(campaign=campaign, slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def battle_create(
    *,
    campaign: Campaign,
    name: str,
    sides: Sequence[SideSpec],
    campaign_turn: int | None = None,
    territory: Territory | None = None,
    system: StarSystem | None = None,
    scenario: str = "",
    user: Any,
) -> Battle:
    """Create a draft battle with its sides and participants; returns it.

    Each side's ships and light units must be that faction's and eligible
    (:func:`eligible_ships`, :func:`eligible_light_units`); the eligible groups the chosen
    ships carry join too. ``territory``: where it is
    fought (its name becomes ``location``); ``system``: the star map's system it is fought
    in (its name the ``location`` when no territory is given), whose fleets' ships only
    may be fielded (a ``territory`` given with it must be placed in it). Raises
    :class:`BattleActionError` naming the side, the ship (or group) and the field: fewer
    than two sides, a faction twice or not in the campaign, a unit not eligible, a side
    with no unit, an empty name, a turn < 1, a territory outside ``system``.
    One transaction; a timeline entry is added.
    ``user`` must organise ``campaign`` (:class:`~campaign.core.refusals.Refused`).
    """
    require_battle_organiser(user, campaign)
    name = (name or "").strip()
    if not name:
        raise BattleActionError(_("name: a battle needs a name"))
    if campaign_turn is not None and (
        not isinstance(campaign_turn, int) or not 1 <= campaign_turn <= limits.NUMBER_MAX
    ):
        raise BattleActionError(
            _("campaign_turn: %(value)r, expected a whole number ≥ 1") % {"value": campaign_turn}
        )
    if len(sides) < 2:
        raise BattleActionError(
            _("sides: %(n)s given, a battle needs at least two") % {"n": len(sides)}
        )
    if system is not None and system.campaign_id != campaign.pk:
        raise BattleActionError(
            _("system: %(system)s is not a system of this campaign") % {"system": system.name}
        )
    if (
        system is not None
        and territory is not None
        and not system.placements.filter(territory=territory).exists()
    ):
        # The place's name and its system must say the same place.
        raise BattleActionError(
            _("territory: %(territory)s is not in the system %(system)s")
            % {"territory": territory.name, "system": system.name}
        )
    in_campaign = set(campaign.factions.values_list("pk", flat=True))
    seen: set[int] = set()
    with transaction.atomic():
        for i, spec in enumerate(sides):
            where = f"sides[{i}] ({spec.faction.name})"
            if spec.faction.pk not in in_campaign:
                raise BattleActionError(
                    _("%(where)s.faction: not in campaign %(campaign)s")
                    % {"where": where, "campaign": campaign.slug}
                )
            if spec.faction.pk in seen:
                raise BattleActionError(
                    _("%(where)s.faction: the faction is on two sides") % {"where": where}
                )
            seen.add(spec.faction.pk)
            if spec.fleet is not None and spec.fleet.faction_id != spec.faction.pk:
                raise BattleActionError(
                    _("%(where)s.fleet: %(fleet)s is not this faction's")
                    % {"where": where, "fleet": spec.fleet.name}
                )
            if not spec.ships and not spec.light_units:
                raise BattleActionError(
                    _("%(where)s: no ship or light unit chosen") % {"where": where}
                )
            ok_ships = set(
                eligible_ships(campaign=campaign, faction=spec.faction, system=system)
                .filter(pk__in=spec.ships)
                .values_list("pk", flat=True)
            )
            for pk in spec.ships:
                if pk not in ok_ships:
                    ship = Ship.objects.filter(pk=pk).select_related("ship_class").first()
                    raise BattleActionError(
                        _(
                            "%(where)s.ships: %(ship)s cannot be set up (not this faction's, "
                            "destroyed, captured or already in an unconcluded battle)"
                        )
                        % {"where": where, "ship": ship or pk}
                    )
            ok_groups = set(
                eligible_light_units(campaign=campaign, faction=spec.faction)
                .filter(pk__in=spec.light_units)
                .values_list("pk", flat=True)
            )
            for pk in spec.light_units:
                if pk not in ok_groups:
                    group = LightUnitGroup.objects.filter(pk=pk).first()
                    raise BattleActionError(
                        _(
                            "%(where)s.light_units: %(group)s cannot be set up (not this "
                            "faction's, no craft left or already in an unconcluded battle)"
                        )
                        % {"where": where, "group": group or pk}
                    )
        battle = Battle.objects.create(
            campaign=campaign,
            name=name,
            slug=_unique_slug(campaign, name),
            campaign_turn=campaign_turn,
            territory=territory,
            system=system,
            location=territory.name if territory else (system.name if system else ""),
            scenario=scenario,
            mode=Battle.Mode.RESOLVED,
        )
        forces = []
        for order, spec in enumerate(sides):
            side = BattleSide.objects.create(
                battle=battle,
                faction=spec.faction,
                fleet=spec.fleet,
                primary_objective=spec.primary_objective,
                secondary_objectives=spec.secondary_objectives,
                order=order,
            )
            for pk in sorted(set(spec.ships)):
                Participant.objects.create(side=side, ship_id=pk)
            # The squadrons the chosen ships carry come along (they fly from their bays).
            carried = eligible_light_units(campaign=campaign, faction=spec.faction).filter(
                carrier_id__in=list(spec.ships)
            )
            groups = set(spec.light_units) | set(carried.values_list("pk", flat=True))
            for pk in sorted(groups):
                Participant.objects.create(side=side, light_units_id=pk)
            # The groups counted as fielded, the carried ones with the chosen ones.
            forces.append(
                {"side": spec.faction.name, "ships": len(set(spec.ships)), "groups": len(groups)}
            )
        line = message("battle.sides", sides=forces)
        BattleAction.objects.create(
            battle=battle,
            user=user if getattr(user, "is_authenticated", False) else None,
            kind=BattleAction.Kind.CREATE,
            summary=text_of(line),
            summary_message=line,
        )
    return battle


def ships_held(
    *, ship_ids: Sequence[int], exclude_battle: Battle | None = None
) -> dict[int, Battle]:
    """Ship id → the unconcluded battle holding it, for the ids given (a ship is in at
    most one unconcluded battle)."""
    rows = _held(exclude_battle).filter(ship_id__in=list(ship_ids)).select_related("side__battle")
    return {p.ship_id: p.side.battle for p in rows}


def ships_held_by_battles(*, campaign: Campaign) -> list[tuple[Ship, Battle]]:
    """The ships of ``campaign``'s factions that a draft battle holds — of this campaign
    or of another one sharing a faction — with that battle, by ship name (two queries).
    The set-up page lists them so a ship held elsewhere does not just vanish."""
    rows = (
        _held(None)
        .filter(ship__fleet__faction__in=campaign.factions.all())
        .exclude(ship__status__in=[Ship.Status.DESTROYED, Ship.Status.CAPTURED])
        .select_related("ship__ship_class", "side__battle__campaign")
        .order_by("ship__name", "ship__pk")
    )
    return [(p.ship, p.side.battle) for p in rows]
