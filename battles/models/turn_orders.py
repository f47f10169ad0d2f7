"""Turn-by-turn play of a battle: the frozen set-up and each side's orders
per game turn. Imported by ``battles.models`` so Django registers them with the app.

The engine's state after the last turn played is stored (``TurnPlay.state``) and the next
turn starts from it; ``TurnPlay.setup`` (designs, carried damage, seed, options, fixed
platforms: the ``setup`` event row of ``battles.services.engine_log``) and the
``TurnOrders`` of every turn played replay the battle whole (``battles.play.game_turns``).
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class TurnPlay(models.Model):
    """A draft battle being fought turn by turn from both sides' orders.

    ``setup``: the set-up row data (seed, options, known classes, fleets, ships) frozen when
    play starts; ``turns_played``: game turns resolved so far; ``deadline``: when the turn
    being ordered is played even if a side has not ordered (its ships then take the
    auto-resolve tactics); ``turn_interval``: when set, each turn played sets the next
    turn's deadline that long after (None: the organiser sets each one); ``ended``: the
    battle is over (one side gone, the turn cap, or the organiser ended it) and was
    concluded; ``engine_hash``: the rules engine that set
    it up (``battles.play.engine_state.engine_hash``), the only one that may play its
    turns; ``state``: the engine's state after the turns played
    (``battles.play.engine_state.dump``; null once ended, or for a play started before
    states were stored: its next turn replays it from the set-up once).
    """

    battle = models.OneToOneField(
        "battles.Battle",
        on_delete=models.CASCADE,
        related_name="turn_play",
        verbose_name=_("battle"),
    )
    setup = models.JSONField(_("set-up"), default=dict)
    max_turns = models.PositiveIntegerField(_("turn cap"), default=20)
    turns_played = models.PositiveIntegerField(_("turns played"), default=0)
    deadline = models.DateTimeField(_("orders deadline"), null=True, blank=True)
    turn_interval = models.DurationField(
        _("time for each turn"),
        null=True,
        blank=True,
        help_text=_("When set, each turn played sets the next turn's deadline this long after."),
    )
    ended = models.BooleanField(_("ended"), default=False)
    engine_hash = models.CharField(_("rules engine"), max_length=64, blank=True)
    state = models.JSONField(_("engine state"), null=True, blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("started by"),
    )
    started_at = models.DateTimeField(_("started"), auto_now_add=True)

    class Meta:
        verbose_name = _("turn-by-turn play")
        verbose_name_plural = _("turn-by-turn plays")

    def __str__(self) -> str:
        return f"{self.battle} (turn {self.turns_played + 1})"

    @property
    def turn_interval_hours(self) -> float | int | None:
        """``turn_interval`` in hours (a whole number when whole), None when not set."""
        if self.turn_interval is None:
            return None
        hours = round(self.turn_interval.total_seconds() / 3600, 2)
        return int(hours) if hours.is_integer() else hours

    @property
    def current_turn(self) -> int:
        """The game turn being ordered (1-based)."""
        return self.turns_played + 1


class TurnOrders(models.Model):
    """One side's orders for one game turn (rules §2 phase 1).

    ``orders``: engine ship id -> ``{"movement": "+3, 1B", "fire": [{"system", "target",
    "mode", "power_points"}], "launches": [[system, target]], "screens": bool|null,
    "veil": bool|null, "withdraw": bool, "recover": [unit ids]}``; ``auto``: the side did
    not order by the deadline and its ships took the auto-resolve tactics
    (``battles.rules.ai``); ``orders`` is then empty.
    """

    battle = models.ForeignKey(
        "battles.Battle", on_delete=models.CASCADE, related_name="turn_orders"
    )
    side = models.ForeignKey(
        "battles.BattleSide",
        on_delete=models.CASCADE,
        related_name="turn_orders",
        verbose_name=_("side"),
    )
    game_turn = models.PositiveIntegerField(_("game turn"))
    orders = models.JSONField(_("orders"), default=dict, blank=True)
    auto = models.BooleanField(_("auto-resolve tactics"), default=False)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("submitted by"),
    )
    submitted_at = models.DateTimeField(_("submitted"), auto_now=True)

    class Meta:
        ordering = ["battle", "game_turn", "side__order"]
        verbose_name = _("turn orders")
        verbose_name_plural = _("turn orders")
        constraints = [
            models.UniqueConstraint(
                fields=["battle", "game_turn", "side"], name="turnorders_unique_side_turn"
            )
        ]

    def __str__(self) -> str:
        return f"{self.battle} turn {self.game_turn}: {self.side.faction}"
