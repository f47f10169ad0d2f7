"""The fog of war's rows: what a faction saw of an enemy fleet at a turn's close
(:class:`Sighting`, its last-known position once out of reach) and what an organiser
revealed to a faction (:class:`Reveal`, kept after it is revoked, with who and when).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Sighting(models.Model):
    """``observer`` saw ``fleet`` at the close of turn ``turn``: in ``system`` or on
    ``link`` (one of the two), ``blips`` its size then (one blip per started 50 mass of
    each ship afloat, rules §5). Written only by ``campaign.fog.sightings`` at the close,
    deleted by the turn's reopening."""

    class How(models.TextChoices):
        SENSORS = "sensors", _("sensors")
        REVEAL = "reveal", _("revealed by an organiser")

    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="+", verbose_name=_("campaign")
    )
    observer = models.ForeignKey(
        "factions.Faction", on_delete=models.CASCADE, related_name="+", verbose_name=_("observer")
    )
    fleet = models.ForeignKey(
        "factions.Fleet", on_delete=models.CASCADE, related_name="+", verbose_name=_("fleet")
    )
    turn = models.PositiveIntegerField(_("turn"))
    system = models.ForeignKey(
        "starmap.StarSystem",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("in system"),
    )
    link = models.ForeignKey(
        "starmap.StarLink",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("on link"),
    )
    blips = models.PositiveSmallIntegerField(_("blips"), default=0)
    how = models.CharField(_("seen by"), max_length=10, choices=How.choices)

    class Meta:
        ordering = ["campaign", "observer", "fleet", "turn"]
        verbose_name = _("sighting")
        verbose_name_plural = _("sightings")
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "observer", "fleet", "turn"], name="sighting_once_a_turn"
            ),
            models.CheckConstraint(
                condition=Q(system__isnull=False, link__isnull=True)
                | Q(system__isnull=True, link__isnull=False),
                name="sighting_system_or_link",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.observer} saw {self.fleet} (turn {self.turn})"


class Reveal(models.Model):
    """An organiser showed ``faction`` where ``fleet`` is, from ``revealed_at`` until
    revoked (``revoked_at``; the row is kept). One live reveal a fleet and faction."""

    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="+", verbose_name=_("campaign")
    )
    fleet = models.ForeignKey(
        "factions.Fleet", on_delete=models.CASCADE, related_name="+", verbose_name=_("fleet")
    )
    faction = models.ForeignKey(
        "factions.Faction",
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("revealed to"),
    )
    revealed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("revealed by"),
    )
    revealed_at = models.DateTimeField(_("revealed at"), auto_now_add=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("revoked by"),
    )
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ["campaign", "-revealed_at", "-pk"]
        verbose_name = _("reveal")
        verbose_name_plural = _("reveals")
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "fleet", "faction"],
                condition=Q(revoked_at__isnull=True),
                name="reveal_one_live",
            )
        ]

    def __str__(self) -> str:
        return f"{self.fleet} → {self.faction}"

    @property
    def live(self) -> bool:
        return self.revoked_at is None
