"""Victory points: a campaign's scoring rules, the awards they give, and each fleet's
strength at every turn close (the standings' charts).

Read and written by ``battles.scoring``; the models only hold the rows.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from battles.models.battle import Battle


class ScoringRules(models.Model):
    """How a campaign scores victory points (VP): one row per campaign, created with these
    defaults the first time it is read (``battles.scoring.rules.rules_for``).

    ``victory`` / ``draw`` / ``defeat``: VP to each side of a concluded battle by its
    outcome; ``per_objective``: VP per objective a side met (``BattleSide.objectives_met``);
    ``per_holding``: VP per territory a faction holds at each turn close
    (``battles.scoring.awards.holdings_at_close``); ``destroyed_points`` VP for every whole
    ``destroyed_per`` construction points (``ShipClass.points``) of enemy ships destroyed
    or captured in a battle.
    """

    campaign = models.OneToOneField(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="scoring_rules",
        verbose_name=_("campaign"),
    )
    victory = models.PositiveIntegerField(_("VP for a victory"), default=3)
    draw = models.PositiveIntegerField(_("VP for a draw"), default=1)
    defeat = models.PositiveIntegerField(_("VP for a defeat"), default=0)
    per_objective = models.PositiveIntegerField(_("VP per objective met"), default=1)
    per_holding = models.PositiveIntegerField(
        _("VP per territory held at each turn close"), default=1
    )
    destroyed_points = models.PositiveIntegerField(_("VP per block of points destroyed"), default=1)
    destroyed_per = models.PositiveIntegerField(_("points destroyed per block"), default=100)

    class Meta:
        verbose_name = _("scoring rules")
        verbose_name_plural = _("scoring rules")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(destroyed_per__gte=1), name="scoringrules_block_positive"
            )
        ]

    def __str__(self) -> str:
        return str(self.campaign)


class VictoryAward(models.Model):
    """Victory points given to a faction (and, when it has players, to one of them: the
    faction's points are shared among its players, ``battles.scoring.awards``) for one
    reason: a battle's outcome, its objectives, the points it destroyed, or the territories
    held at a turn close. ``count`` is what the points are for (1 outcome, objectives met,
    points destroyed, territories held), so a change of the rules recomputes ``points``.
    The totals are sums of these rows; reopening the battle or the turn deletes them."""

    class Reason(models.TextChoices):
        VICTORY = "victory", _("victory")
        DRAW = "draw", _("draw")
        DEFEAT = "defeat", _("defeat")
        OBJECTIVES = "objectives", _("objectives met")
        DESTROYED = "destroyed", _("points destroyed")
        HOLDINGS = "holdings", _("territories held")

    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="victory_awards",
        verbose_name=_("campaign"),
    )
    faction = models.ForeignKey(
        "factions.Faction",
        on_delete=models.CASCADE,
        related_name="victory_awards",
        verbose_name=_("faction"),
    )
    # The player credited with this share; None when the faction had no player.
    membership = models.ForeignKey(
        "campaign.Membership",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="victory_awards",
        verbose_name=_("player"),
    )
    turn = models.PositiveIntegerField(_("campaign turn"))
    battle = models.ForeignKey(
        Battle,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="victory_awards",
        verbose_name=_("battle"),
    )
    reason = models.CharField(_("reason"), max_length=20, choices=Reason.choices)
    count = models.PositiveIntegerField(_("counted"), default=0)
    # This row is share ``share`` (0-based) of ``shares`` equal shares of the faction's
    # award (``battles.scoring.awards``), so a rules change recomputes it alone.
    share = models.PositiveSmallIntegerField(_("share number"), default=0)
    shares = models.PositiveSmallIntegerField(_("shares"), default=1)
    points = models.PositiveIntegerField(_("victory points"), default=0)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["campaign", "turn", "pk"]
        verbose_name = _("victory award")
        verbose_name_plural = _("victory awards")
        indexes = [models.Index(fields=["campaign", "turn"], name="victoryaward_campaign_turn")]

    def __str__(self) -> str:
        return f"{self.faction} +{self.points} ({self.reason}, turn {self.turn})"


class StrengthSnapshot(models.Model):
    """A fleet's active ships at a turn close: ``ships`` (count), ``points`` (construction
    points, ``ShipClass.points``) and ``mass`` (mass points), summed over its ships neither
    destroyed nor captured. Written by the close (``battles.scoring.strength``), deleted by
    the turn's reopen; the fleet's visibility decides who sees the row."""

    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="strength_snapshots",
        verbose_name=_("campaign"),
    )
    turn = models.PositiveIntegerField(_("campaign turn"))
    faction = models.ForeignKey(
        "factions.Faction",
        on_delete=models.CASCADE,
        related_name="strength_snapshots",
        verbose_name=_("faction"),
    )
    fleet = models.ForeignKey(
        "factions.Fleet",
        on_delete=models.CASCADE,
        related_name="strength_snapshots",
        verbose_name=_("fleet"),
    )
    ships = models.PositiveIntegerField(_("ships"), default=0)
    points = models.PositiveIntegerField(_("points"), default=0)
    mass = models.PositiveIntegerField(_("mass"), default=0)

    class Meta:
        ordering = ["campaign", "turn", "fleet"]
        verbose_name = _("fleet strength at a turn close")
        verbose_name_plural = _("fleet strengths at turn closes")
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "turn", "fleet"], name="strengthsnapshot_unique_fleet"
            )
        ]

    def __str__(self) -> str:
        return f"{self.fleet} turn {self.turn}: {self.points} pts"
