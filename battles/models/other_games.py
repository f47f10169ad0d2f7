"""Units and battle results of the other game systems (seeds 001–004).

Where the units are kept, and why: Full Thrust ships are ``factions.Ship`` rows of a
``ShipClass`` SSD (mass, hull rows, armour, systems) in a ``Fleet`` that moves on the
campaign map and may be hidden. A Starfinder ship (tier, crew, shield quadrants), a Star
Wars Starship Battles ship (class, hull points, screen value, defence) or an Epic base
(class, abilities) has none of that, so they are kept in their own roster,
:class:`SystemUnit`, on the same **faction** — standings, reports and the site count by
faction, so their battles flow in like any other. Roster entries are public, like ship
classes; a battle records each unit's result as a :class:`SystemParticipant` of the
faction's ``BattleSide``.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from battles.models.battle import Participant
from battles.systems.games import SYSTEMS

OTHER_SYSTEM_CHOICES = [(s.id, s.name) for s in SYSTEMS.values() if s.id != "ft-incursion"]


class SystemUnit(models.Model):
    """A ship or base of another game system in a faction's roster. ``stats`` holds what
    that system's rules read (e.g. ``{"tier": "6", "crew": 6}``, ``{"hull": 40,
    "screen_value": 4, "defence": 14}``, ``{"shields": 2}``); ``abilities`` the Epic
    ability ids."""

    faction = models.ForeignKey(
        "factions.Faction",
        on_delete=models.CASCADE,
        related_name="system_units",
        verbose_name=_("faction"),
    )
    game_system = models.CharField(_("game system"), max_length=30, choices=OTHER_SYSTEM_CHOICES)
    name = models.CharField(_("name"), max_length=120)
    kind = models.CharField(
        _("kind"), max_length=60, blank=True, help_text=_("Class, rank or base type.")
    )
    stats = models.JSONField(_("statistics"), default=dict, blank=True)
    abilities = models.JSONField(_("abilities"), default=list, blank=True)

    class Meta:
        ordering = ["faction", "game_system", "name"]
        verbose_name = _("unit of another game system")
        verbose_name_plural = _("units of other game systems")
        constraints = [
            models.UniqueConstraint(
                fields=["faction", "game_system", "name"], name="system_unit_unique_name"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_game_system_display()})"

    def clean(self) -> None:
        """Check ``stats`` and ``abilities`` against the system's rules package."""
        from django.core.exceptions import ValidationError

        from battles.services.other_games import OtherBattleError, unit_stats_check

        try:
            unit_stats_check(self.game_system, self.stats, self.abilities)
        except OtherBattleError as exc:
            raise ValidationError({exc.field: exc.message}) from None


class SystemParticipant(models.Model):
    """One unit's result in a battle of another game system: fate, hull points lost,
    critical states, notes."""

    side = models.ForeignKey(
        "battles.BattleSide",
        on_delete=models.CASCADE,
        related_name="system_units",
        verbose_name=_("side"),
    )
    unit = models.ForeignKey(
        SystemUnit,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="results",
        verbose_name=_("roster unit"),
    )
    name = models.CharField(_("name"), max_length=120)
    kind = models.CharField(_("kind"), max_length=60, blank=True)
    fate = models.CharField(
        _("fate"),
        max_length=20,
        choices=Participant.Fate.choices,
        default=Participant.Fate.UNHARMED,
    )
    hull_lost = models.PositiveIntegerField(_("hull points lost"), default=0)
    critical_states = models.JSONField(_("critical states"), default=list, blank=True)
    notes = models.TextField(_("notes"), blank=True)

    class Meta:
        ordering = ["side", "pk"]
        verbose_name = _("unit in a battle of another game system")
        verbose_name_plural = _("units in battles of other game systems")

    def __str__(self) -> str:
        return self.name
