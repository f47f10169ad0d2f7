"""What a campaign document holds: one :class:`Table` a model, in dependency order.

Each entry names its model, the ORM path from a row to the campaign (``scope``), its
natural key (document fields whose values, joined by ``/``, name a row: slugs, numbers;
references from other rows use that string) or none (rows are then named by their
1-based position in their table, a document-local reference), and the JSON or text
fields that hold engine ids or row ids (:mod:`campaign.exchange.ids`).

Fields and references are read from the model: every concrete field but the primary key
is exported; a foreign key names the table of its model (a user by user name, the
campaign implied). Adding a model is one entry here (the star map, commanders), or one
line of :data:`EXCLUDED` saying why it stays out; ``tests/campaign/exchange`` fails on a
model that is in neither.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import models

from battles.models import (
    Battle,
    BattleAction,
    BattleSide,
    Event,
    Participant,
    RecordEntry,
    ScoringRules,
    StrengthSnapshot,
    SystemParticipant,
    SystemUnit,
    TurnOrders,
    TurnPlay,
    VictoryAward,
)
from campaign.exchange.ids import ENGINE, ROUTE, TURN_SUMMARY, TURN_UNDO, IdWalk
from campaign.fog.models import Reveal, Sighting
from campaign.league.models import Campaign, Intel, Membership
from campaign.starmap.models import (
    FleetPosition,
    MapMove,
    StarLink,
    StarSystem,
    TerritoryPlacement,
)
from campaign.turns.models import (
    CampaignTurn,
    Construction,
    FleetMove,
    LedgerEntry,
    RepairOrder,
)
from factions.commanders.models import Commander, RenownAward
from factions.models import (
    Faction,
    Fleet,
    LightUnitGroup,
    Ship,
    ShipClass,
    Squadron,
    Territory,
)

#: A reference to a user: their user name.
USER = "user"


@dataclass(frozen=True)
class Table:
    """One exported model.

    ``name``: the document's key for its rows (``"ships"``); ``scope``: the lookup from
    the model to the campaign (``"fleet__faction__campaigns"``); ``key``: the document
    fields naming a row (``("faction", "slug")``), empty for positional rows;
    ``unique``: fields unique across the whole instance, refused on import when a row
    holds them already (factions are global rows, fleet slugs too); ``ids``: JSON or text
    fields holding row ids, each with the :class:`~campaign.exchange.ids.IdWalk` that
    finds them; ``exclude``: fields left out, each with its reason in a comment where the
    table is built; ``replaces``: the campaign's own row, made with defaults when the
    campaign is saved (its scoring rules), which the imported row replaces.
    """

    name: str
    model: type[models.Model]
    scope: str
    key: tuple[str, ...] = ()
    unique: tuple[str, ...] = ()
    ids: dict[str, IdWalk] = field(default_factory=dict)
    exclude: tuple[str, ...] = ()
    replaces: bool = False

    def fields(self) -> list[models.Field]:
        """The model's exported concrete fields, in model order: every one but the
        primary key, the excluded ones and a foreign key to the campaign (implied)."""
        return [
            f
            for f in self.model._meta.concrete_fields
            if not f.primary_key
            and f.name not in self.exclude
            and not (f.is_relation and f.related_model is Campaign)
        ]


#: Every exported model, parents before children. ``ENGINE`` fields hold ``ship-<pk>`` /
#: ``lu-<pk>`` engine ids and ``"participant"`` / ``"ship"`` row ids (the set-up row,
#: record entries' results, orders, the engine state).
TABLES: tuple[Table, ...] = (
    Table("factions", Faction, "campaigns", key=("slug",), unique=("slug", "name")),
    Table("territories", Territory, "faction__campaigns", key=("faction", "slug")),
    Table("ship_classes", ShipClass, "faction__campaigns", key=("faction", "slug")),
    Table("fleets", Fleet, "faction__campaigns", key=("slug",), unique=("slug",)),
    Table("squadrons", Squadron, "fleet__faction__campaigns"),
    Table("ships", Ship, "fleet__faction__campaigns"),
    Table("light_units", LightUnitGroup, "faction__campaigns"),
    Table("commanders", Commander, "faction__campaigns"),
    Table("system_units", SystemUnit, "faction__campaigns"),
    Table("memberships", Membership, "campaign"),
    # The star map: systems (named by slug), links, territories placed, where fleets are.
    Table("star_systems", StarSystem, "campaign", key=("slug",)),
    Table("star_links", StarLink, "campaign"),
    Table("territory_placements", TerritoryPlacement, "campaign"),
    Table("fleet_positions", FleetPosition, "campaign"),
    Table("battles", Battle, "campaign", key=("slug",)),
    Table("battle_sides", BattleSide, "battle__campaign"),
    Table("participants", Participant, "side__battle__campaign"),
    Table("system_participants", SystemParticipant, "side__battle__campaign"),
    Table("record_entries", RecordEntry, "battle__campaign", ids={"results": ENGINE}),
    Table("events", Event, "battle__campaign", ids={"summary": ENGINE, "data": ENGINE}),
    Table("battle_actions", BattleAction, "battle__campaign", ids={"data": ENGINE}),
    Table("turn_plays", TurnPlay, "battle__campaign", ids={"setup": ENGINE, "state": ENGINE}),
    Table("turn_orders", TurnOrders, "battle__campaign", ids={"orders": ENGINE}),
    Table("renown_awards", RenownAward, "commander__faction__campaigns"),
    Table("intel", Intel, "campaign"),
    # ``undo``: what reopening the last closed turn restores, so it reopens after an import.
    Table(
        "turns",
        CampaignTurn,
        "campaign",
        key=("number",),
        ids={"summary": TURN_SUMMARY, "undo": TURN_UNDO},
    ),
    Table("repair_orders", RepairOrder, "campaign"),
    Table("constructions", Construction, "campaign"),
    Table("ledger", LedgerEntry, "campaign"),
    Table("fleet_moves", FleetMove, "campaign"),
    Table("map_moves", MapMove, "campaign", ids={"route": ROUTE}),
    # The fog of war: what each faction saw at each close, the organisers' reveals.
    Table("sightings", Sighting, "campaign"),
    Table("reveals", Reveal, "campaign"),
    Table("scoring_rules", ScoringRules, "campaign", replaces=True),
    Table("victory_awards", VictoryAward, "campaign"),
    Table("strength_snapshots", StrengthSnapshot, "campaign"),
)

#: The table each kind of id in stored JSON names (:mod:`campaign.exchange.ids`).
KIND_TABLES: dict[str, str] = {
    "ship": "ships",
    "lu": "light_units",
    "participant": "participants",
    "construction": "constructions",
    "fleet": "fleets",
    "repair_order": "repair_orders",
    "ledger": "ledger",
    "fleet_move": "fleet_moves",
    "territory": "territories",
    "fleet_position": "fleet_positions",
    "star_system": "star_systems",
    "star_link": "star_links",
    "map_move": "map_moves",
}

TABLE_OF_MODEL: dict[type[models.Model], Table] = {t.model: t for t in TABLES}

#: Models of the project's apps that a campaign document leaves out, and why.
EXCLUDED: dict[str, str] = {
    # The document's root: its own fields at the top of the document.
    "campaign.Campaign": "the document's root object",
    # Instance-local secrets and machinery, never moved between instances.
    "campaign.ApiToken": "personal tokens belong to an instance's accounts",
    "campaign.Invitation": "links are instance secrets (only their hash is kept); re-invite",
    "campaign.SiteBuild": "builds of this instance's published site",
    # Rendered files: rebuilt from the battle by the report tasks.
    "battles.Report": "rendered report files, rebuilt after the import",
    # Reopening data keyed by this instance's ids: an imported battle is not reopened
    # (``battle_reopen`` refuses, as for a battle concluded before snapshots).
    "battles.BattleSnapshot": "reopen data keyed by database ids",
    # The fleet cache's version counter: a new instance starts its own.
    "factions.DataVersion": "the fleet cache's version counter",
    # Notifications: people's own settings and this instance's channels and sending log.
    "notify.NotificationPreference": "a person's own choice on this instance",
    "notify.NotificationProfile": "a person's own choice on this instance",
    "notify.CampaignWebhook": "the channel's address is a secret of this instance; set it again",
    "notify.Delivery": "this instance's log of messages sent",
}


def is_history_model(model: type[models.Model]) -> bool:
    """True for django-simple-history's tables (``HistoricalShip``…): the history of
    changes on this instance, not campaign state; an import starts a new history."""
    return model.__name__.startswith("Historical") and hasattr(model, "instance_type")


def user_model() -> type[models.Model]:
    """The user model references by user name point to."""
    return get_user_model()
