"""The sample campaign's loader: ``sample_load`` builds the sample campaign of the seed
from the data files in this folder (restated from seed 000):

- ``factions.json``: the campaign ``sample`` and the four factions with their profile fields
  and territories. Every faction has a yard (``shipyard_capacity``) so each can repair and
  build on turn 1; two are readings of seed 000 (README *The sample's yards*): Qatzrin's
  home port, named after the community (the seed names no world of it; it sold
  transports to Barn Kalmar, so it builds ships), and a small drone-run yard at the G+
  *Miranda colony A* (the Miranda report: drones build the colonies' automated
  infrastructure in an ore-rich belt);
- ``fleets.json``: fleets (``territory``: the slug of where the fleet is, absent while in
  transit; Qatzrin's 5th fleet, which the seed places nowhere, is read as mustered at its
  home port on turn 1, before the Skirmish at Mieska of turn 2), squadrons, ships and
  light-unit groups. A ship entry is
  ``{"class", "count"?, "name"?, "squadron"?, "captain"?, "notes"?}``; each hull gets a key:
  ``slugify(name)`` for a named ship, ``<class slug>-<n>`` (1-based, per class) otherwise.
  A light unit is ``{"name", "kind", "unit_type", "carrier"? (ship key), "territory"?
  (territory slug of the fleet's faction or any faction), "size"? (default 6)}``;
- ``battle-*.json``: a battle with its sides. Every ship and light unit of a side's fleet
  takes part, unless the side lists ``ships`` (ship keys) and then ``light_units`` (names,
  default none): a detachment. ``participants`` maps a ship key or light-unit name to its
  fate and losses (``hull_lost``/``armour_lost`` boxes, ``systems_lost`` system ids,
  ``craft_lost``). Unlisted units are unharmed. The fates also set each ship's state (a
  destroyed ship has every hull and armour box and all crew lost; crew lost otherwise
  follows hull lost, D-9).
- ``starmap.json``: the star map (``_starmap_load``): systems (map units 0–1 000) with
  the territories placed in them (slugs), links ``[a, b, travel turns]``, the system each
  fleet starts in (placed once: a reload leaves a fleet that has moved where it is) and
  the system of each battle (by slug).
- A battle with ``"mode": "resolved"``, ``"status": "draft"`` and a ``seed`` is left for
  the engine (``manage.py demo`` resolves it, ``battles.services.battle_resolve``). Once
  the engine has concluded it, loading again leaves that battle, its participants and the
  damage of its ships as the engine wrote them: the file only describes the set-up.
- ``narrative_language``: the language a battle's narrative is written in (the sample's
  are English restatements of the French seed): a French reader is told so.
- A concluded battle's report is published with it: ``report_published_at`` is set to its
  ``concluded_at`` when empty; its victory points are written as a conclusion writes them
  (``battles.scoring.awards.battle_awards_write``), once.

Ship classes come from the designs catalogue (``factions.catalogue_loader.catalogue_load``).
Rows are matched by their natural keys and saved only when a value differs, so running the
load twice changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.db import models, transaction
from django.utils.text import slugify

from battles.models import Battle, BattleSide, Participant, VictoryAward
from battles.scoring.awards import battle_awards_write
from battles.services import crew_lost_from_hull
from battles.services.intel import intel_record_battle
from campaign.league.models import Campaign
from campaign.sample.rows import SampleDataError, read_json, upsert
from campaign.sample.starmap import starmap_load
from factions.catalogue_loader import catalogue_load
from factions.commanders.records import commander_post
from factions.designs.schema import design_system_ids
from factions.models import Faction, Fleet, LightUnitGroup, Ship, ShipClass, Squadron, Territory

SAMPLE_DIR = Path(__file__).resolve().parent

_FACTION_FIELDS = (
    "population",
    "capital",
    "economy",
    "army_size",
    "government",
    "ruler",
    "political_blocs",
    "description",
)
_TERRITORY_FIELDS = (
    "kind",
    "population",
    "defences",
    "has_shipyard",
    "shipyard_capacity",
    "description",
)


@dataclass(frozen=True)
class SampleSummary:
    """What ``sample_load`` left in the database for the sample campaign (row counts)."""

    campaign: Campaign
    factions: int
    territories: int
    fleets: int
    ships: int
    light_units: int
    battles: int
    participants: int


def _system_ids(where: str, ship_class: ShipClass) -> list[str]:
    """System ids a ship of ``ship_class`` may lose
    (``factions.designs.schema.design_system_ids``)."""
    try:
        return design_system_ids(ship_class.design or {})
    except ValueError as exc:
        raise SampleDataError(f"{where}: class {ship_class.name} (design): {exc}") from exc


def _damage(where: str, ship_class: ShipClass, spec: dict[str, Any]) -> dict[str, Any]:
    """Participant losses from a fate ``spec``, checked against the class (boxes, ids)."""
    fate = spec.get("fate", Participant.Fate.UNHARMED)
    if fate not in Participant.Fate.values:
        raise SampleDataError(f"{where}.fate: '{fate}' is not one of {Participant.Fate.values}")
    if fate == Participant.Fate.DESTROYED:
        hull, armour = ship_class.hull_boxes, ship_class.armour
    else:
        hull, armour = int(spec.get("hull_lost", 0)), int(spec.get("armour_lost", 0))
        if not 0 <= hull < ship_class.hull_boxes:
            raise SampleDataError(
                f"{where}.hull_lost: {hull} for a {ship_class.name} of "
                f"{ship_class.hull_boxes} hull boxes (all boxes lost means destroyed)"
            )
    if not 0 <= armour <= ship_class.armour:
        raise SampleDataError(
            f"{where}.armour_lost: {armour} for a {ship_class.name} of "
            f"{ship_class.armour} armour boxes"
        )
    systems = list(spec.get("systems_lost", []))
    known = _system_ids(where, ship_class) if systems else []
    unknown = sorted(set(systems) - set(known))
    if unknown:
        raise SampleDataError(
            f"{where}.systems_lost: {unknown} are not systems of {ship_class.name} "
            f"({', '.join(sorted(known))})"
        )
    return {
        "fate": fate,
        "hull_lost": hull,
        "armour_lost": armour,
        "crew_lost": crew_lost_from_hull(ship_class.crew_factors, ship_class.hull_boxes, hull),
        "systems_lost": systems,
        "craft_lost": 0,
        "notes": spec.get("notes", ""),
    }


def _factions_load(data: dict[str, Any]) -> tuple[Campaign, dict[str, Faction]]:
    factions: dict[str, Faction] = {}
    for i, fac in enumerate(data["factions"]):
        if not fac.get("slug") or not fac.get("name"):
            raise SampleDataError(f"factions.json: factions[{i}]: needs a slug and a name")
        values = {"name": fac["name"], **{f: fac[f] for f in _FACTION_FIELDS if f in fac}}
        faction, _ = upsert(Faction, {"slug": fac["slug"]}, values)
        factions[faction.slug] = faction
        for j, ter in enumerate(fac.get("territories", [])):
            if ter.get("kind", "other") not in Territory.Kind.values:
                raise SampleDataError(
                    f"factions.json: factions[{i}].territories[{j}].kind: '{ter.get('kind')}'"
                )
            values = {"name": ter["name"], **{f: ter[f] for f in _TERRITORY_FIELDS if f in ter}}
            upsert(Territory, {"faction_id": faction.pk, "slug": ter["slug"]}, values)
    camp = data["campaign"]
    campaign, _ = upsert(
        Campaign,
        {"slug": camp["slug"]},
        {"name": camp["name"], "description": camp.get("description", "")},
        create_only={"current_turn": camp.get("current_turn", 1)},
    )
    campaign.factions.add(*(factions[s] for s in camp.get("factions", [])))
    return campaign, factions


def _ship_keys(where: str, ships: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """Expand ship entries into ``(key, entry)`` per hull, in data order."""
    keyed: list[tuple[str, dict[str, Any]]] = []
    per_class: dict[str, int] = {}
    for i, entry in enumerate(ships):
        count = entry.get("count", 1)
        if not isinstance(count, int) or count < 1 or (entry.get("name") and count != 1):
            raise SampleDataError(f"{where}.ships[{i}].count: {count!r} (1 for a named ship)")
        for _ in range(count):
            if entry.get("name"):
                key = slugify(entry["name"])
            else:
                per_class[entry["class"]] = per_class.get(entry["class"], 0) + 1
                key = f"{slugify(entry['class'])}-{per_class[entry['class']]}"
            keyed.append((key, entry))
    keys = [k for k, _ in keyed]
    if len(set(keys)) != len(keys):
        raise SampleDataError(f"{where}.ships: two ships share a key ({keys})")
    return keyed


_SHIP_STATE = ("status", "hull_lost", "armour_lost", "crew_lost", "systems_lost")


def _ship_create(fleet: Fleet, values: dict[str, Any], *, battle: str | None) -> Ship:
    """A new ship with ``values``. Hurt in the sample battle ``battle`` (its slug), it is
    built intact and then takes that battle's damage in a second history row whose reason
    names the battle ("battle <slug>", what ``factions.web.timeline`` reads as the battle's own
    row): built already damaged, its life would show the losses twice.
    """
    intact = {"status": Ship.Status.ACTIVE, "hull_lost": 0, "armour_lost": 0, "crew_lost": 0}
    intact["systems_lost"] = []
    hurt = {f: values[f] for f in _SHIP_STATE}
    if battle is None or hurt == intact:
        return Ship.objects.create(fleet=fleet, **values)
    ship = Ship.objects.create(fleet=fleet, **{**values, **intact})
    for name, value in hurt.items():
        setattr(ship, name, value)
    ship._change_reason = f"battle {battle}"
    ship.save()
    return ship


def _fleet_load(
    where: str,
    spec: dict[str, Any],
    *,
    factions: dict[str, Faction],
    classes: dict[tuple[str, str], ShipClass],
    territories: dict[str, Territory],
    fates: dict[str, dict[str, Any]],
) -> tuple[Fleet, dict[str, Ship], dict[str, LightUnitGroup]]:
    """Upsert one fleet; returns it, its ships by key and its light units by name.

    ``fates`` maps ship keys / light-unit names to their battle fate (from the battle
    file), which sets the ship's damage state and a group's strength.
    """
    faction = factions.get(spec.get("faction", ""))
    if faction is None:
        raise SampleDataError(f"{where}.faction: unknown faction '{spec.get('faction')}'")
    values = {
        "faction_id": faction.pk,
        "name": spec["name"],
        "description": spec.get("description", ""),
    }
    if "hidden" in spec:
        values["hidden"] = bool(spec["hidden"])
    if spec.get("territory"):  # where the fleet is; absent: in transit
        if spec["territory"] not in territories:
            raise SampleDataError(f"{where}.territory: unknown '{spec['territory']}'")
        values["territory_id"] = territories[spec["territory"]].pk
    fleet, _ = upsert(Fleet, {"slug": spec["slug"]}, values)
    # Commanders are records (the same name in the faction, the same person): posted
    # again to the same place, nothing changes.
    commander_post(faction=faction, name=spec.get("admiral", ""), fleet=fleet)
    squadrons = {
        sq["name"]: upsert(
            Squadron,
            {"fleet_id": fleet.pk, "name": sq["name"]},
            {"description": sq.get("description", "")},
        )[0]
        for sq in spec.get("squadrons", [])
    }
    for sq in spec.get("squadrons", []):
        commander_post(
            faction=faction, name=sq.get("commander", ""), squadron=squadrons[sq["name"]]
        )
    existing = list(fleet.ships.order_by("pk"))
    # Ships whose damage the engine wrote (a resolved battle) keep it: see module doc.
    engine_damaged = set(
        Participant.objects.filter(
            ship__fleet=fleet,
            side__battle__mode=Battle.Mode.RESOLVED,
            side__battle__status=Battle.Status.CONCLUDED,
        ).values_list("ship_id", flat=True)
    )
    ships: dict[str, Ship] = {}
    for key, entry in _ship_keys(where, spec.get("ships", [])):
        ship_class = classes.get((faction.slug, entry["class"]))
        if ship_class is None:
            known = sorted(n for f, n in classes if f == faction.slug)
            raise SampleDataError(
                f"{where}.ships[{key}].class: no class '{entry['class']}' of {faction.slug} "
                f"in the catalogue ({', '.join(known)})"
            )
        if entry.get("squadron") and entry["squadron"] not in squadrons:
            raise SampleDataError(f"{where}.ships[{key}].squadron: '{entry['squadron']}'")
        damage = _damage(f"{where}.ships[{key}] (battle)", ship_class, fates.get(key, {}))
        values = {
            "ship_class_id": ship_class.pk,
            "name": entry.get("name", ""),
            "squadron_id": squadrons[entry["squadron"]].pk if entry.get("squadron") else None,
            "notes": entry.get("notes", ""),
            **{f: damage[f] for f in ("hull_lost", "armour_lost", "crew_lost", "systems_lost")},
        }
        # The rule a battle's conclusion follows: a ship that lost only armour is damaged.
        values["status"] = Ship.status_for(
            **{f: damage[f] for f in ("hull_lost", "armour_lost", "crew_lost", "systems_lost")},
            destroyed=damage["fate"] == Participant.Fate.DESTROYED,
            captured=damage["fate"] == Participant.Fate.CAPTURED,
        )
        # Match an existing hull: same name, or the next unnamed one of the class.
        match = next(
            (s for s in existing if s.ship_class_id == ship_class.pk and s.name == values["name"]),
            None,
        )
        if match is not None and match.pk in engine_damaged:
            for f in ("status", "hull_lost", "armour_lost", "crew_lost", "systems_lost"):
                del values[f]
        if match is None:
            ships[key] = _ship_create(fleet, values, battle=fates.get(key, {}).get("battle"))
        else:
            existing.remove(match)
            ships[key] = upsert(Ship, {"pk": match.pk}, values)[0]
        commander_post(faction=faction, name=entry.get("captain", ""), ship=ships[key])
    lights: dict[str, LightUnitGroup] = {}
    for lu in spec.get("light_units", []):
        lwhere = f"{where}.light_units[{lu.get('name')}]"
        if lu.get("kind") not in LightUnitGroup.Kind.values:
            raise SampleDataError(f"{lwhere}.kind: '{lu.get('kind')}'")
        carrier = ships.get(lu["carrier"]) if lu.get("carrier") else None
        if lu.get("carrier") and carrier is None:
            raise SampleDataError(f"{lwhere}.carrier: no ship '{lu['carrier']}' in the fleet")
        territory = territories.get(lu["territory"]) if lu.get("territory") else None
        if lu.get("territory") and territory is None:
            raise SampleDataError(f"{lwhere}.territory: unknown '{lu['territory']}'")
        size = int(lu.get("size", 6))
        craft_lost = int(fates.get(lu["name"], {}).get("craft_lost", 0))
        if not 0 <= craft_lost <= size:
            raise SampleDataError(f"{lwhere} (battle).craft_lost: {craft_lost} of {size}")
        lights[lu["name"]] = upsert(
            LightUnitGroup,
            {"fleet_id": fleet.pk, "name": lu["name"]},
            {
                "kind": lu["kind"],
                "unit_type": lu.get("unit_type", ""),
                "faction_id": faction.pk,
                "carrier_id": carrier.pk if carrier else None,
                "territory_id": territory.pk if territory else None,
                "location": territory.name if territory else lu.get("location", ""),
                "size": size,
                "strength": size - craft_lost,
            },
        )[0]
    return fleet, ships, lights


def _detachment(
    where: str,
    side_spec: dict[str, Any],
    ships: dict[str, Ship],
    lights: dict[str, LightUnitGroup],
) -> tuple[dict[str, Ship], dict[str, LightUnitGroup]]:
    """The ships (by key) and light units (by name) a side lists, checked against its fleet."""
    for field, known in (("ships", ships), ("light_units", lights)):
        unknown = sorted(set(side_spec.get(field, [])) - set(known))
        if unknown:
            raise SampleDataError(
                f"{where}.{field}: {unknown} are not in the fleet ({', '.join(known)})"
            )
    return (
        {k: ships[k] for k in side_spec["ships"]},
        {n: lights[n] for n in side_spec.get("light_units", [])},
    )


def _battle_load(
    where: str,
    spec: dict[str, Any],
    *,
    campaign: Campaign,
    factions: dict[str, Faction],
    fleets: dict[str, tuple[Fleet, dict[str, Ship], dict[str, LightUnitGroup]]],
) -> Battle:
    winner = factions.get(spec.get("winner", "")) if spec.get("winner") else None
    values = {
        f: spec.get(f, default)
        for f, default in (
            ("name", ""),
            ("location", ""),
            ("campaign_turn", None),
            ("game_turns", None),
            ("scenario", ""),
            ("outcome", ""),
            ("narrative", ""),
            # the language the narrative was written in ("" unknown): a reader of another
            # one is told so (battles.reports.narrative)
            ("narrative_language", ""),
            ("analysis", ""),
            ("mode", Battle.Mode.RECORDED),
            ("status", Battle.Status.DRAFT),
        )
    }
    values["winner_id"] = winner.pk if winner else None
    values["seed"] = spec.get("seed")
    battle = Battle.objects.filter(campaign=campaign, slug=spec["slug"]).first()
    if (
        battle is not None
        and battle.mode == Battle.Mode.RESOLVED
        and battle.status == Battle.Status.CONCLUDED
        and spec.get("status", Battle.Status.DRAFT) == Battle.Status.DRAFT
    ):
        return battle  # the engine's result stands (module doc)
    concluded = values["status"] == Battle.Status.CONCLUDED
    if battle is None:
        battle = Battle(campaign=campaign, slug=spec["slug"], **values)
        if concluded:
            battle.mark_concluded()
        battle.save()
    else:
        changed = [f for f, v in values.items() if getattr(battle, f) != v]
        if changed:  # a new version, so cached reports are rendered again
            for f in changed:
                setattr(battle, f, values[f])
            if "status" in changed:  # its time goes with the status
                if concluded:
                    battle.mark_concluded()
                else:
                    battle.concluded_at = None
                changed.append("concluded_at")
            battle.version += 1
            battle.save(update_fields=[*changed, "version", "updated_at"])
    # A report recorded with its battle is published with it: its date is the conclusion's
    # (set once; the desk shows it, "Published 2026-…").
    Battle.objects.filter(
        pk=battle.pk,
        status=Battle.Status.CONCLUDED,
        report_state=Battle.ReportState.PUBLISHED,
        report_published_at__isnull=True,
    ).update(report_published_at=models.F("concluded_at"))
    for i, side_spec in enumerate(spec["sides"]):
        swhere = f"{where}.sides[{i}]"
        faction = factions.get(side_spec.get("faction", ""))
        if faction is None or side_spec.get("fleet") not in fleets:
            raise SampleDataError(f"{swhere}: unknown faction or fleet")
        fleet, ships, lights = fleets[side_spec["fleet"]]
        if "ships" in side_spec:
            ships, lights = _detachment(swhere, side_spec, ships, lights)
        side, _ = upsert(
            BattleSide,
            {"battle_id": battle.pk, "faction_id": faction.pk},
            {
                "fleet_id": fleet.pk,
                "order": side_spec.get("order", i),
                **{
                    f: side_spec.get(f, "")
                    for f in ("primary_objective", "secondary_objectives", "analysis")
                },
            },
        )
        fates = side_spec.get("participants", {})
        unknown = sorted(set(fates) - set(ships) - set(lights))
        if unknown:
            raise SampleDataError(
                f"{swhere}.participants: {unknown} are not units of {fleet.slug} "
                f"(ships: {', '.join(ships)}; light units: {', '.join(lights)})"
            )
        for key, ship in ships.items():
            damage = _damage(f"{swhere}.participants[{key}]", ship.ship_class, fates.get(key, {}))
            upsert(Participant, {"side_id": side.pk, "ship_id": ship.pk}, damage)
        for name, group in lights.items():
            fate = fates.get(name, {})
            upsert(
                Participant,
                {"side_id": side.pk, "light_units_id": group.pk},
                {
                    "fate": fate.get("fate", Participant.Fate.UNHARMED),
                    "craft_lost": int(fate.get("craft_lost", 0)),
                    "notes": fate.get("notes", ""),
                },
            )
    return battle


def sample_load(*, directory: Path = SAMPLE_DIR) -> SampleSummary:
    """Create or update the sample campaign of the seed; idempotent, one transaction.

    Reads ``factions.json``, ``fleets.json`` and ``battle-*.json`` from ``directory`` (shapes
    in the module docstring), loads the ship-class catalogue after the factions, then the
    fleets (ship states from the battles' fates) and the battles. Returns row counts.
    Raises :class:`SampleDataError` naming the file and field, or the catalogue's
    ``CatalogueError``; the database is then left as it was.
    """
    faction_data = read_json(directory / "factions.json")
    fleet_data = read_json(directory / "fleets.json")
    battle_files = sorted(directory.glob("battle-*.json"))
    battles_data = [(p.name, read_json(p)) for p in battle_files]
    # Fates by fleet: the battle decides each ship's state, so ships are saved once.
    fates: dict[str, dict[str, dict[str, Any]]] = {}
    for _, b in battles_data:
        for side in b.get("sides", []):
            fates.setdefault(side.get("fleet", ""), {}).update(
                {k: {**v, "battle": b.get("slug")} for k, v in side.get("participants", {}).items()}
            )
    with transaction.atomic():
        campaign, factions = _factions_load(faction_data)
        classes = catalogue_load()
        territories = {t.slug: t for t in Territory.objects.filter(faction__in=factions.values())}
        fleets = {
            spec["slug"]: _fleet_load(
                f"fleets.json: fleets[{i}]",
                spec,
                factions=factions,
                classes=classes,
                territories=territories,
                fates=fates.get(spec["slug"], {}),
            )
            for i, spec in enumerate(fleet_data["fleets"])
        }
        battles = [
            _battle_load(name, spec, campaign=campaign, factions=factions, fleets=fleets)
            for name, spec in battles_data
        ]
        starmap_load(
            read_json(directory / "starmap.json"), campaign=campaign, fleets=fleets, battles=battles
        )
        for battle in battles:  # classes met (rules §5); idempotent on a reload
            if battle.status == Battle.Status.CONCLUDED:
                intel_record_battle(battle=battle)
                # Its victory points, as a conclusion writes them (the loader does not
                # conclude through battles.services); once: a reload keeps the rows.
                if not VictoryAward.objects.filter(battle=battle).exists():
                    battle_awards_write(battle)
        fleet_ids = [f.pk for f, _, _ in fleets.values()]
        return SampleSummary(
            campaign=campaign,
            factions=len(factions),
            territories=len(territories),
            fleets=len(fleets),
            ships=Ship.objects.filter(fleet_id__in=fleet_ids).count(),
            light_units=LightUnitGroup.objects.filter(fleet_id__in=fleet_ids).count(),
            battles=len(battles),
            participants=Participant.objects.filter(side__battle__in=battles).count(),
        )
