"""Factions, their territories, ship classes, fleets, squadrons and ships.

A ``ShipClass`` carries the ship system diagram (SSD) as a JSON ``design``; a ``Ship`` is
one hull of a class with its damage state (hull boxes, armour boxes, crew factors and
systems lost). Game terms follow the rules' glossary (README, *Layout*).
"""

from collections.abc import Sequence
from typing import Any

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from battles.rules.ships import crew_factors
from factions.commanders.models import Commander, RenownAward
from factions.designs.validation import design_figures
from factions.type_words import type_label
from factions.versioning import VersionedQuerySet

__all__ = [
    "Commander",
    "Faction",
    "Fleet",
    "LightUnitGroup",
    "RenownAward",
    "Ship",
    "ShipClass",
    "Squadron",
    "Territory",
]


class Faction(models.Model):
    """A power of the campaign (Kongeriket Norge, Qatzrin, the Phalon…).

    Profile fields follow the Kongeriket Norge sheet of the seed
    (rules §15).
    """

    name = models.CharField(_("name"), max_length=120, unique=True)
    slug = models.SlugField(_("slug"), max_length=120, unique=True)
    population = models.CharField(_("population"), max_length=200, blank=True)
    capital = models.CharField(_("capital"), max_length=200, blank=True)
    economy = models.TextField(_("economy"), blank=True)
    army_size = models.CharField(_("army size"), max_length=200, blank=True)
    government = models.TextField(_("government"), blank=True)
    ruler = models.CharField(_("ruler"), max_length=200, blank=True)
    political_blocs = models.TextField(_("political blocs"), blank=True)
    description = models.TextField(_("description (Markdown)"), blank=True)

    objects = VersionedQuerySet.as_manager()  # bulk writes change the fleet data version

    class Meta:
        ordering = ["name"]
        verbose_name = _("faction")
        verbose_name_plural = _("factions")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("faction-detail", kwargs={"slug": self.slug})


class Territory(models.Model):
    """A station, moon, planet or colony held by a faction."""

    class Kind(models.TextChoices):
        STATION = "station", _("station")
        MOON = "moon", _("moon")
        PLANET = "planet", _("planet")
        COLONY = "colony", _("colony")
        ASTEROID = "asteroid", _("asteroid")
        OTHER = "other", _("other")

    faction = models.ForeignKey(
        Faction, on_delete=models.CASCADE, related_name="territories", verbose_name=_("faction")
    )
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=120)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.OTHER)
    population = models.CharField(_("population"), max_length=200, blank=True)
    defences = models.TextField(_("defences"), blank=True)
    has_shipyard = models.BooleanField(_("shipyard"), default=False)
    shipyard_capacity = models.PositiveIntegerField(
        _("shipyard capacity"),
        default=0,
        help_text=_("Repair work units per turn (one per hull box, armour box, crew factor)."),
    )
    description = models.TextField(_("description (Markdown)"), blank=True)

    objects = VersionedQuerySet.as_manager()  # bulk writes change the fleet data version

    class Meta:
        ordering = ["faction", "name"]
        verbose_name = _("territory")
        verbose_name_plural = _("territories")
        constraints = [
            models.UniqueConstraint(fields=["faction", "slug"], name="territory_unique_slug")
        ]

    def __str__(self) -> str:
        return self.name


class ShipClass(models.Model):
    """A ship design: the full SSD as JSON in ``design`` and its figures as columns (copies
    for SQL ordering and lists, written only by :meth:`set_design`).

    Units: ``mass`` in mass points, ``hull_boxes`` and ``armour`` in boxes, ``thrust`` in
    thrust points (rules §3–4). ``provisional`` marks stats the project
    designed itself because no official sheet exists (§17).
    """

    faction = models.ForeignKey(
        Faction, on_delete=models.CASCADE, related_name="ship_classes", verbose_name=_("faction")
    )
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=120)
    type_word = models.CharField(
        _("type"), max_length=60, blank=True, help_text=_("corvette, frégate, porte-nef…")
    )
    mass = models.PositiveIntegerField(_("mass"))
    hull_boxes = models.PositiveIntegerField(_("hull boxes"))
    armour = models.PositiveIntegerField(_("armour boxes"), default=0)
    thrust = models.PositiveIntegerField(_("thrust"), default=0)
    design = models.JSONField(_("design (SSD)"), default=dict, blank=True)
    provisional = models.BooleanField(_("provisional"), default=True)
    points = models.PositiveIntegerField(_("points"), null=True, blank=True)

    objects = VersionedQuerySet.as_manager()  # bulk writes change the fleet data version

    class Meta:
        ordering = ["faction", "mass", "name"]
        verbose_name = _("ship class")
        verbose_name_plural = _("ship classes")
        constraints = [
            models.UniqueConstraint(fields=["faction", "slug"], name="shipclass_unique_slug")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.type_label})" if self.type_word else self.name

    def get_absolute_url(self) -> str:
        return reverse("shipclass-detail", kwargs={"pk": self.pk})

    @property
    def type_label(self) -> str:
        """``type_word`` in the reader's language (``factions.type_words``)."""

        return type_label(self.type_word)

    @property
    def crew_factors(self) -> int:
        """Crew factors of the class's mass (the engine's rule, §4, D-5)."""
        return crew_factors(self.mass)

    def set_design(self, document: dict[str, Any], *, lenient: bool = False) -> None:
        """Set ``design`` to ``document`` and the figures derived from it (``mass``,
        ``hull_boxes``, ``armour``, ``thrust``, ``points``:
        ``factions.designs.validation.design_figures``). The one writer of those columns:
        they are copies kept for ordering and listing in SQL, never edited apart. A valid
        document that states no points gets its Fleet Book price written into it, so the
        column still copies the document.

        Raises ``DesignInvalid`` (a ``ValueError``) naming each bad field, the class left
        unchanged; ``lenient`` accepts a document that parses but fails a rule check (an
        imported ship kept provisional). Not saved.
        """
        figures = design_figures(document, lenient=lenient)
        if document.get("points") is None and figures["points"] is not None:
            document = {**document, "points": figures["points"]}
        self.design = document
        for name, value in figures.items():
            setattr(self, name, value)

    @property
    def design_document(self) -> dict[str, Any]:
        """The class's design document; for a class without one (made before designs were
        kept, or by hand) one built from its figures, with no systems: what the SSD and the
        API draw then."""
        if self.design:
            return self.design
        return {
            "name": self.name,
            "type_word": self.type_word,
            "faction": self.faction.slug,
            "mass": self.mass,
            "thrust": self.thrust,
            "hull": {"boxes": self.hull_boxes},
            "armour": {"layers": [self.armour] if self.armour else []},
            "points": self.points,
            "provisional": self.provisional,
            "systems": [],
        }


class Fleet(models.Model):
    """A fleet of a faction; ``hidden`` fleets are never published. Its admiral is a
    :class:`~factions.commanders.models.Commander` (``fleet.admiral``, absent: none)."""

    faction = models.ForeignKey(
        Faction, on_delete=models.CASCADE, related_name="fleets", verbose_name=_("faction")
    )
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=200, unique=True)
    description = models.TextField(_("description (Markdown)"), blank=True)
    hidden = models.BooleanField(
        _("hidden"), default=False, help_text=_("Hidden fleets are seen only by their faction.")
    )
    territory = models.ForeignKey(
        Territory,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="fleets",
        verbose_name=_("at territory"),
        help_text=_("Where the fleet is; empty while in transit."),
    )
    history = HistoricalRecords()

    objects = VersionedQuerySet.as_manager()  # bulk writes change the fleet data version

    class Meta:
        ordering = ["faction", "name"]
        verbose_name = _("fleet")
        verbose_name_plural = _("fleets")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("fleet-detail", kwargs={"slug": self.slug})


class Squadron(models.Model):
    """A squadron (escadre) of a fleet; its commander is a
    :class:`~factions.commanders.models.Commander` (``squadron.commander``)."""

    fleet = models.ForeignKey(
        Fleet, on_delete=models.CASCADE, related_name="squadrons", verbose_name=_("fleet")
    )
    name = models.CharField(_("name"), max_length=200)
    description = models.TextField(_("description (Markdown)"), blank=True)

    objects = VersionedQuerySet.as_manager()  # bulk writes change the fleet data version

    class Meta:
        ordering = ["fleet", "name"]
        verbose_name = _("squadron")
        verbose_name_plural = _("squadrons")

    def __str__(self) -> str:
        return self.name


class Ship(models.Model):
    """One ship of a class, and its damage state.

    ``hull_lost`` and ``armour_lost`` count boxes crossed off; ``crew_lost`` counts crew
    factors; ``systems_lost`` is a list of system ids from the class design
    (rules §4, §11). Its captain is a :class:`~factions.commanders.models.Commander`
    (``ship.captain``).
    """

    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        DAMAGED = "damaged", _("damaged")
        DESTROYED = "destroyed", _("destroyed")
        CAPTURED = "captured", _("captured")

    name = models.CharField(_("name"), max_length=200, blank=True)
    ship_class = models.ForeignKey(
        ShipClass, on_delete=models.PROTECT, related_name="ships", verbose_name=_("class")
    )
    fleet = models.ForeignKey(
        Fleet, on_delete=models.CASCADE, related_name="ships", verbose_name=_("fleet")
    )
    squadron = models.ForeignKey(
        Squadron,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ships",
        verbose_name=_("squadron"),
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.ACTIVE
    )
    hull_lost = models.PositiveIntegerField(_("hull boxes lost"), default=0)
    armour_lost = models.PositiveIntegerField(_("armour boxes lost"), default=0)
    crew_lost = models.PositiveIntegerField(_("crew factors lost"), default=0)
    systems_lost = models.JSONField(_("systems lost"), default=list, blank=True)
    notes = models.TextField(_("notes"), blank=True)
    history = HistoricalRecords()

    objects = VersionedQuerySet.as_manager()  # bulk writes change the fleet data version

    class Meta:
        ordering = ["fleet", "ship_class__mass", "name", "pk"]
        verbose_name = _("ship")
        verbose_name_plural = _("ships")

    def __str__(self) -> str:
        return self.name or f"{self.ship_class.name} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("ship-detail", kwargs={"pk": self.pk})

    @classmethod
    def status_for(
        cls,
        *,
        hull_lost: int,
        armour_lost: int,
        crew_lost: int,
        systems_lost: Sequence[str],
        destroyed: bool = False,
        captured: bool = False,
    ) -> str:
        """The one rule for a ship's status from its damage state: ``destroyed`` or
        ``captured`` when flagged (a battle's fate), else ``damaged`` when any hull box,
        armour box, crew factor or system is lost, else ``active``. Every writer of
        ``status`` from damage (a battle's conclusion, the sample loader, repairs at the
        turn close) calls it, so the same losses read the same whichever path wrote them.
        A ship that withdrew is judged by its damage alone."""
        if destroyed:
            return cls.Status.DESTROYED
        if captured:
            return cls.Status.CAPTURED
        hurt = hull_lost or armour_lost or crew_lost or systems_lost
        return cls.Status.DAMAGED if hurt else cls.Status.ACTIVE

    def settle_status(self, *, destroyed: bool = False, captured: bool = False) -> str:
        """Set ``status`` from this ship's own damage (:meth:`status_for`); returns it. Not
        saved: the caller writes the row with the damage it changed."""
        self.status = self.status_for(
            hull_lost=self.hull_lost,
            armour_lost=self.armour_lost,
            crew_lost=self.crew_lost,
            systems_lost=self.systems_lost or [],
            destroyed=destroyed,
            captured=captured,
        )
        return self.status

    @property
    def hull_left(self) -> int:
        """Hull boxes still intact."""
        return max(0, self.ship_class.hull_boxes - self.hull_lost)

    @property
    def armour_left(self) -> int:
        """Armour boxes still intact."""
        return max(0, self.ship_class.armour - self.armour_lost)


class LightUnitGroup(models.Model):
    """Light units (fighters, gunboats, batteries) attached to a carrier, station or fleet.

    ``strength`` is the number of craft left of ``size`` (squadrons of 6, §9).
    """

    class Kind(models.TextChoices):
        FIGHTER = "fighter", _("fighters")
        INTERCEPTOR = "interceptor", _("interceptors")
        HEAVY_FIGHTER = "heavy-fighter", _("heavy fighters")
        LONG_RANGE_FIGHTER = "long-range-fighter", _("long-range fighters")
        DRONE = "drone", _("drones")
        GUNBOAT = "gunboat", _("gunboats")
        BATTERY = "battery", _("batteries")

    name = models.CharField(_("name"), max_length=200)
    kind = models.CharField(_("kind"), max_length=30, choices=Kind.choices)
    unit_type = models.CharField(
        _("unit type"), max_length=120, blank=True, help_text=_("e.g. Nith, heavy transport")
    )
    faction = models.ForeignKey(
        Faction, on_delete=models.CASCADE, related_name="light_units", verbose_name=_("faction")
    )
    fleet = models.ForeignKey(
        Fleet,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="light_units",
        verbose_name=_("fleet"),
    )
    carrier = models.ForeignKey(
        Ship,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="light_units",
        verbose_name=_("carrier"),
    )
    territory = models.ForeignKey(
        Territory,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="light_units",
        verbose_name=_("territory"),
    )
    location = models.CharField(
        _("based at"), max_length=200, blank=True, help_text=_("station or colony, if no carrier")
    )
    size = models.PositiveIntegerField(_("size"), default=6)
    strength = models.PositiveIntegerField(_("strength"), default=6)
    history = HistoricalRecords()

    objects = VersionedQuerySet.as_manager()  # bulk writes change the fleet data version

    class Meta:
        ordering = ["faction", "name"]
        verbose_name = _("light-unit group")
        verbose_name_plural = _("light-unit groups")

    def __str__(self) -> str:
        return self.name
