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

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from battles.models.battle import Participant
from battles.rules.errors import RulesError
from battles.systems import epic, sf_tokens, swsb
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


class OtherBattleError(ValueError):
    """Bad input for a recorded battle; ``field`` names the form field."""

    def __init__(self, field: str, message: str, *, label: str | None = None) -> None:
        # ``field`` stays the form's key; the text names it in the reader's language.
        shown = label or str(FIELD_LABELS.get(field, field))
        super().__init__(gettext("%(field)s: %(message)s") % {"field": shown, "message": message})
        self.field = field
        self.message = message


#: The form fields as errors name them (``critical_states`` fields name their row).
FIELD_LABELS = {
    "stats": gettext_lazy("stats"),
    "abilities": gettext_lazy("abilities"),
    "game_system": gettext_lazy("game system"),
    "name": gettext_lazy("name"),
    "sides": gettext_lazy("sides"),
    "winner": gettext_lazy("winner"),
    "fate": gettext_lazy("fate"),
    "unit": gettext_lazy("unit"),
}


def unit_stats_check(game_system: str, stats: object, abilities: object) -> None:
    """Check a roster unit's data against its system's rules package: Starfinder ``tier``
    and ``crew`` (seed 001), Star Wars ``rank``, ``hull``, ``defence``, ``screen_value``
    (seed 002), Epic ``abilities`` ids (seed 004). Raises :class:`OtherBattleError`."""
    if not isinstance(stats, dict):
        raise OtherBattleError("stats", gettext("expected an object"))
    if not isinstance(abilities, list):
        raise OtherBattleError("abilities", gettext("expected a list of ability ids"))
    try:
        if game_system == "starfinder":
            sf_tokens.parse_tier(stats.get("tier"), "stats.tier")
            crew = stats.get("crew")
            if isinstance(crew, bool) or not isinstance(crew, int) or crew < 1:
                raise OtherBattleError(
                    "stats",
                    gettext("crew: %(value)r is not a crew count (1 or more)") % {"value": crew},
                )
        elif game_system == "sw-starship-battles":
            swsb.ship_from_dict({"id": "unit", "side": "roster", **stats})
        elif game_system == "epic":
            for ability in abilities:
                epic.get_ability(ability)
    except RulesError as exc:
        raise OtherBattleError(
            "stats" if game_system != "epic" else "abilities", str(exc)
        ) from None
