"""The league between battles: campaign turns, repair orders at
shipyards, construction, and each faction's treasury ledger.

A treasury is not a stored balance: it is the sum of the faction's ``LedgerEntry`` rows in a
campaign (``campaign.turns.treasury.treasury_balance``), so every credit and debit is on record and
undoing a turn is deleting the entries it wrote.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from factions.versioning import VersionedQuerySet


class CampaignTurn(models.Model):
    """One turn of a campaign. ``deadline`` is stored in UTC and shown in the campaign's
    time zone (``Campaign.time_zone``). ``summary`` is what closing did (shown on the
    turn page); ``undo`` is what reopening needs to restore it exactly (previous ship,
    order and light-unit fields, rows created)."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="turns",
        verbose_name=_("campaign"),
    )
    number = models.PositiveIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    opened_at = models.DateTimeField(_("opened at"), auto_now_add=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    deadline = models.DateTimeField(_("deadline (UTC)"), null=True, blank=True)
    summary = models.JSONField(_("summary"), default=dict, blank=True)
    undo = models.JSONField(_("undo record"), default=dict, blank=True, editable=False)
    # Who opened, closed or reopened it and when, for the organisers' history page; the
    # summary and undo record are the turn's own and would only double the table.
    history = HistoricalRecords(excluded_fields=["summary", "undo"])

    class Meta:
        ordering = ["campaign", "number"]
        verbose_name = _("campaign turn")
        verbose_name_plural = _("campaign turns")
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="turn_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.campaign} — turn {self.number}"


class RepairOrder(models.Model):
    """Work ordered on a damaged ship at a friendly shipyard (``yard``).

    Ordered amounts (``hull``, ``armour``, ``crew`` boxes/factors, ``systems`` ids) and
    what is done so far (``*_done``); ``unit_costs`` freezes the price of one unit of each
    kind when ordered (``{"hull", "armour", "crew", "systems": {id: cost}}``) so a refund
    pays back exactly the work not done. ``position`` orders the yard's queue.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        DONE = "done", _("done")
        CANCELLED = "cancelled", _("cancelled")

    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="repair_orders",
        verbose_name=_("campaign"),
    )
    ship = models.ForeignKey(
        "factions.Ship",
        on_delete=models.CASCADE,
        related_name="repair_orders",
        verbose_name=_("ship"),
    )
    yard = models.ForeignKey(
        "factions.Territory",
        on_delete=models.PROTECT,
        related_name="repair_orders",
        verbose_name=_("shipyard"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    position = models.PositiveIntegerField(_("queue position"), default=0)
    hull = models.PositiveIntegerField(_("hull boxes"), default=0)
    armour = models.PositiveIntegerField(_("armour boxes"), default=0)
    crew = models.PositiveIntegerField(_("crew factors"), default=0)
    systems = models.JSONField(_("systems"), default=list, blank=True)
    hull_done = models.PositiveIntegerField(_("hull boxes done"), default=0)
    armour_done = models.PositiveIntegerField(_("armour boxes done"), default=0)
    crew_done = models.PositiveIntegerField(_("crew factors done"), default=0)
    systems_done = models.JSONField(_("systems done"), default=list, blank=True)
    unit_costs = models.JSONField(_("unit costs"), default=dict, blank=True)
    cost = models.PositiveIntegerField(_("cost"), default=0)
    refunded = models.PositiveIntegerField(_("refunded"), default=0)
    eta_turn = models.PositiveIntegerField(_("ends at turn"), null=True, blank=True)
    eta_note = models.CharField(_("why the ETA changed"), max_length=300, blank=True)
    # The note as a message key and parameters (campaign.core.messages); {} on older rows.
    eta_note_message = models.JSONField(default=dict, blank=True, editable=False)
    ordered_turn = models.PositiveIntegerField(_("ordered in turn"), default=1)
    ordered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    objects = VersionedQuerySet.as_manager()  # bulk writes change the fleet data version

    class Meta:
        ordering = ["yard", "position", "pk"]
        verbose_name = _("repair order")
        verbose_name_plural = _("repair orders")

    def __str__(self) -> str:
        return f"{self.ship} @ {self.yard}"

    @property
    def left(self) -> dict:
        """What is still to do: ``{"hull", "armour", "crew", "systems"}``."""
        return {
            "hull": self.hull - self.hull_done,
            "armour": self.armour - self.armour_done,
            "crew": self.crew - self.crew_done,
            "systems": [s for s in self.systems if s not in self.systems_done],
        }


class Construction(models.Model):
    """A ship (``ship_class``) or a light-unit squadron (``light_kind`` + ``light_variant``)
    built at a shipyard for a faction; it joins ``fleet`` when ``turns_left`` reaches 0."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("building")
        DONE = "done", _("done")
        CANCELLED = "cancelled", _("cancelled")

    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="constructions",
        verbose_name=_("campaign"),
    )
    faction = models.ForeignKey(
        "factions.Faction",
        on_delete=models.CASCADE,
        related_name="constructions",
        verbose_name=_("faction"),
    )
    yard = models.ForeignKey(
        "factions.Territory",
        on_delete=models.PROTECT,
        related_name="constructions",
        verbose_name=_("shipyard"),
    )
    fleet = models.ForeignKey(
        "factions.Fleet",
        on_delete=models.CASCADE,
        related_name="constructions",
        verbose_name=_("joins fleet"),
    )
    ship_class = models.ForeignKey(
        "factions.ShipClass",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("class"),
    )
    light_kind = models.CharField(_("light-unit kind"), max_length=30, blank=True)
    light_variant = models.CharField(_("light-unit variant"), max_length=60, blank=True)
    name = models.CharField(_("name"), max_length=200, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    turns_total = models.PositiveIntegerField(_("turns"))
    turns_left = models.PositiveIntegerField(_("turns left"))
    cost = models.PositiveIntegerField(_("resources"))
    tech_cost = models.PositiveIntegerField(_("technology"), default=0)
    ship = models.ForeignKey(
        "factions.Ship", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    light_units = models.ForeignKey(
        "factions.LightUnitGroup",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    ordered_turn = models.PositiveIntegerField(_("ordered in turn"), default=1)
    ordered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["yard", "pk"]
        verbose_name = _("construction")
        verbose_name_plural = _("constructions")

    def __str__(self) -> str:
        return self.name or str(self.ship_class or self.light_variant or self.light_kind)


class LedgerEntry(models.Model):
    """One credit (positive) or debit (negative) of a faction's treasury in a campaign:
    ``resources`` and ``technology`` deltas, who wrote it, when and why."""

    class Kind(models.TextChoices):
        INCOME = "income", _("income")
        REPAIR = "repair", _("repair")
        CONSTRUCTION = "construction", _("construction")
        REFUND = "refund", _("refund")
        ADJUSTMENT = "adjustment", _("organiser adjustment")

    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="ledger",
        verbose_name=_("campaign"),
    )
    faction = models.ForeignKey(
        "factions.Faction",
        on_delete=models.CASCADE,
        related_name="ledger",
        verbose_name=_("faction"),
    )
    turn = models.PositiveIntegerField(_("turn"))
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    resources = models.IntegerField(_("resources"), default=0)
    technology = models.IntegerField(_("technology"), default=0)
    reason = models.CharField(_("why"), max_length=300)
    # The reason as a message key and parameters (campaign.core.messages); {} for an
    # organiser's own words and older rows.
    reason_message = models.JSONField(default=dict, blank=True, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    repair_order = models.ForeignKey(
        RepairOrder, on_delete=models.SET_NULL, null=True, blank=True, related_name="ledger"
    )
    construction = models.ForeignKey(
        Construction, on_delete=models.SET_NULL, null=True, blank=True, related_name="ledger"
    )
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["campaign", "faction", "pk"]
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")

    def __str__(self) -> str:
        return f"{self.faction} {self.resources:+d} ({self.reason})"


class FleetMove(models.Model):
    """A fleet's movement order for a campaign turn: the fleet is at ``destination`` once the
    turn closes (``campaign.turns.moves``). One order a fleet a turn; a new one replaces it."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("ordered")
        DONE = "done", _("done")
        CANCELLED = "cancelled", _("cancelled")

    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="fleet_moves",
        verbose_name=_("campaign"),
    )
    turn = models.PositiveIntegerField(_("turn"))
    fleet = models.ForeignKey(
        "factions.Fleet", on_delete=models.CASCADE, related_name="moves", verbose_name=_("fleet")
    )
    origin = models.ForeignKey(
        "factions.Territory",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("from"),
    )
    destination = models.ForeignKey(
        "factions.Territory",
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("to"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    ordered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["turn", "fleet", "pk"]
        verbose_name = _("fleet movement")
        verbose_name_plural = _("fleet movements")
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "fleet"],
                condition=models.Q(status="queued"),
                name="fleetmove_one_queued_per_fleet",
            )
        ]

    def __str__(self) -> str:
        return f"{self.fleet} → {self.destination}"
