"""The star map's rows: per-campaign systems with a position, links with a travel time,
the factions' territories placed in systems, each fleet's position, and move orders.

Positions are map units on a 1 000 × 1 000 board (x to the right, y downwards, as SVG
draws them). A link's ``travel_turns`` is the number of campaign-turn closes a fleet needs
to go from one end to the other (≥ 1).

**Where a fleet is — one source.** :class:`FleetPosition` is the source: a fleet is in a
``system``, or on a ``link`` heading for ``heading`` and arriving at the close of
``arrival_turn``. ``Fleet.territory`` ("at territory; empty while in transit", which the
yards' repairs read) is derived from it and written only by ``campaign.starmap.movement``
whenever a position changes (:func:`campaign.starmap.movement.berth_for`): on a link it is
empty; in a system it is the fleet's own faction's territory there (the largest yard first),
else empty. A fleet without a ``FleetPosition`` row is not on the map and keeps the
``territory`` it had.

Who holds a system is derived too: the faction holding every territory placed in it
(``Territory.faction``), none when it has no territory or several holders.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


class StarSystem(models.Model):
    """A star system of a campaign's map, at ``(x, y)`` in map units (0–1 000)."""

    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="star_systems",
        verbose_name=_("campaign"),
    )
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=120)
    x = models.PositiveSmallIntegerField(_("x (map units)"))
    y = models.PositiveSmallIntegerField(_("y (map units)"))
    description = models.TextField(_("description (Markdown)"), blank=True)

    class Meta:
        ordering = ["campaign", "name"]
        verbose_name = _("star system")
        verbose_name_plural = _("star systems")
        constraints = [
            models.UniqueConstraint(fields=["campaign", "slug"], name="starsystem_unique_slug"),
            models.CheckConstraint(
                condition=Q(x__lte=1000) & Q(y__lte=1000), name="starsystem_on_board"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class StarLink(models.Model):
    """A link between two systems of the same campaign, both ways, crossed in
    ``travel_turns`` turn closes. Stored once a pair, ``a`` the lower id."""

    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="star_links",
        verbose_name=_("campaign"),
    )
    a = models.ForeignKey(
        StarSystem, on_delete=models.CASCADE, related_name="+", verbose_name=_("from")
    )
    b = models.ForeignKey(
        StarSystem, on_delete=models.CASCADE, related_name="+", verbose_name=_("to")
    )
    travel_turns = models.PositiveSmallIntegerField(_("travel time (turns)"), default=1)

    class Meta:
        ordering = ["campaign", "a", "b"]
        verbose_name = _("star link")
        verbose_name_plural = _("star links")
        constraints = [
            models.UniqueConstraint(fields=["a", "b"], name="starlink_unique_pair"),
            models.CheckConstraint(condition=Q(a__lt=F("b")), name="starlink_ordered_pair"),
            models.CheckConstraint(condition=Q(travel_turns__gte=1), name="starlink_travel_min"),
        ]

    def __str__(self) -> str:
        return f"{self.a} – {self.b}"

    def other_end(self, system_id: int) -> int:
        """The id of the end that is not ``system_id``."""
        return self.b_id if system_id == self.a_id else self.a_id


class TerritoryPlacement(models.Model):
    """A faction's territory placed in a system of a campaign's map (once a campaign)."""

    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="+", verbose_name=_("campaign")
    )
    system = models.ForeignKey(
        StarSystem,
        on_delete=models.CASCADE,
        related_name="placements",
        verbose_name=_("system"),
    )
    territory = models.ForeignKey(
        "factions.Territory",
        on_delete=models.CASCADE,
        related_name="placements",
        verbose_name=_("territory"),
    )

    class Meta:
        ordering = ["system", "territory__name"]
        verbose_name = _("territory placement")
        verbose_name_plural = _("territory placements")
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "territory"], name="placement_once_a_campaign"
            )
        ]

    def __str__(self) -> str:
        return f"{self.territory} @ {self.system}"


class FleetPosition(models.Model):
    """Where a fleet is on a campaign's map: in ``system``, or on ``link`` heading for
    ``heading`` (one of its ends) and arriving at the close of turn ``arrival_turn``; it
    entered the link at the close of ``departed_turn``. The source of ``Fleet.territory``
    (module docstring)."""

    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="fleet_positions",
        verbose_name=_("campaign"),
    )
    fleet = models.OneToOneField(
        "factions.Fleet", on_delete=models.CASCADE, related_name="position", verbose_name=_("fleet")
    )
    system = models.ForeignKey(
        StarSystem,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="fleet_positions",
        verbose_name=_("in system"),
    )
    link = models.ForeignKey(
        StarLink,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="fleet_positions",
        verbose_name=_("on link"),
    )
    heading = models.ForeignKey(
        StarSystem,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("heading for"),
    )
    departed_turn = models.PositiveIntegerField(_("departed at turn"), null=True, blank=True)
    arrival_turn = models.PositiveIntegerField(_("arrival turn"), null=True, blank=True)
    # Past positions, for the map of a closed turn (``campaign.starmap.view``).
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("fleet position")
        verbose_name_plural = _("fleet positions")
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(system__isnull=False, link__isnull=True, heading__isnull=True)
                    & Q(arrival_turn__isnull=True, departed_turn__isnull=True)
                )
                | Q(
                    system__isnull=True,
                    link__isnull=False,
                    heading__isnull=False,
                    arrival_turn__isnull=False,
                    departed_turn__isnull=False,
                ),
                name="fleetposition_system_or_link",
            )
        ]

    def __str__(self) -> str:
        return f"{self.fleet}: {self.system or self.link}"


class MapMove(models.Model):
    """A fleet's move order along links, given during turn ``turn``: ``route`` is the list
    of system ids from where it stood to ``destination`` (shortest path,
    ``campaign.starmap.routes``). Queued until the turn closes, under way while the fleet
    travels (one turn of travel a close), done once it arrives."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("ordered")
        UNDER_WAY = "under_way", _("under way")
        DONE = "done", _("done")
        CANCELLED = "cancelled", _("cancelled")

    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="map_moves",
        verbose_name=_("campaign"),
    )
    turn = models.PositiveIntegerField(_("turn"))
    fleet = models.ForeignKey(
        "factions.Fleet",
        on_delete=models.CASCADE,
        related_name="map_moves",
        verbose_name=_("fleet"),
    )
    origin = models.ForeignKey(
        StarSystem, on_delete=models.PROTECT, related_name="+", verbose_name=_("from")
    )
    destination = models.ForeignKey(
        StarSystem, on_delete=models.PROTECT, related_name="+", verbose_name=_("to")
    )
    route = models.JSONField(_("route (system ids)"), default=list)
    travel_turns = models.PositiveSmallIntegerField(_("travel time (turns)"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    ordered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["campaign", "turn", "pk"]
        verbose_name = _("map move")
        verbose_name_plural = _("map moves")

    def __str__(self) -> str:
        return f"{self.fleet}: {self.origin} → {self.destination}"
