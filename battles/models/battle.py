"""Battles, their sides and participants, the dice/event log and rendered reports."""

from datetime import datetime

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from battles.systems.games import DEFAULT_SYSTEM, SYSTEMS


class Battle(models.Model):
    """A battle of a campaign, recorded from the table or resolved by the engine.

    ``narrative`` and ``analysis`` are Markdown written by people; they are sanitised when
    rendered (battles/reports/context.py).
    """

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        CONCLUDED = "concluded", _("concluded")

    class Mode(models.TextChoices):
        RECORDED = "recorded", _("recorded from the table")
        RESOLVED = "resolved", _("resolved by the rules engine")
        TURNS = "turns", _("fought turn by turn from both sides' orders")

    class ReportState(models.TextChoices):
        DRAFT = "draft", _("drafted, not published")
        PUBLISHED = "published", _("published")

    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="battles",
        verbose_name=_("campaign"),
    )
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=200)
    location = models.CharField(_("location"), max_length=200, blank=True)
    territory = models.ForeignKey(
        "factions.Territory",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="battles",
        verbose_name=_("territory"),
        help_text=_("Where it is fought; its based fighters and batteries may defend it."),
    )
    system = models.ForeignKey(
        "starmap.StarSystem",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="battles",
        verbose_name=_("star system"),
        help_text=_("The map's system it is fought in: set-up offers only the ships there."),
    )
    date = models.DateField(_("date"), null=True, blank=True)
    campaign_turn = models.PositiveIntegerField(_("campaign turn"), null=True, blank=True)
    game_turns = models.PositiveIntegerField(_("game turns played"), null=True, blank=True)
    scenario = models.TextField(_("scenario (Markdown)"), blank=True)
    outcome = models.TextField(_("outcome"), blank=True)
    # An engine outcome as a message key and parameters (campaign.core.messages); {} for
    # an organiser's own words and older rows.
    outcome_message = models.JSONField(default=dict, blank=True, editable=False)
    # The one stored fact of who won (None: a draw or no winner); a side's ``is_winner``
    # and a faction's wins are read from it. Protected: deleting the faction would turn a
    # concluded victory into a draw.
    winner = models.ForeignKey(
        "factions.Faction",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="battles_won",
        verbose_name=_("winner"),
    )
    narrative = models.TextField(_("narrative (Markdown)"), blank=True)
    # The drafted narrative in every language of the site ({language code: Markdown}): a
    # reader gets the draft in their own language while ``narrative`` is one of them.
    narrative_drafts = models.JSONField(default=dict, blank=True, editable=False)
    # The language a person wrote ``narrative`` in ("" : a draft, or not known).
    narrative_language = models.CharField(
        _("narrative written in"), max_length=10, blank=True, editable=False
    )
    analysis = models.TextField(_("analysis (Markdown)"), blank=True)
    mode = models.CharField(_("mode"), max_length=20, choices=Mode.choices, default=Mode.RECORDED)
    game_system = models.CharField(
        _("game system"),
        max_length=30,
        choices=[(s.id, s.name) for s in SYSTEMS.values()],
        default=DEFAULT_SYSTEM,
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.DRAFT
    )
    seed = models.BigIntegerField(_("dice seed"), null=True, blank=True)
    report_state = models.CharField(
        _("report"),
        max_length=20,
        choices=ReportState.choices,
        default=ReportState.PUBLISHED,
        help_text=_(
            "A drafted report's narrative and analyses are shown only to its chroniclers and"
            " organisers until it is published."
        ),
    )
    report_published_at = models.DateTimeField(_("report published"), null=True, blank=True)
    version = models.PositiveIntegerField(
        _("version"),
        default=1,
        help_text=_("Revision number, raised on every edit in the admin."),
    )
    concluded_at = models.DateTimeField(_("concluded"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["campaign", "campaign_turn", "date", "name"]
        verbose_name = _("battle")
        verbose_name_plural = _("battles")
        constraints = [
            models.UniqueConstraint(fields=["campaign", "slug"], name="battle_unique_slug")
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("battle-detail", kwargs={"pk": self.pk})

    def mark_concluded(self, when: datetime | None = None) -> list[str]:
        """Set ``status`` concluded and ``concluded_at`` (``when``, default now) together:
        the one way a battle becomes concluded, so every concluded battle has its time
        (reopening orders and repair seams read it). Not saved; returns the field names to
        save."""
        self.status = self.Status.CONCLUDED
        self.concluded_at = when or timezone.now()
        return ["status", "concluded_at"]


class BattleSide(models.Model):
    """One side of a battle: a faction, its objectives and its own analysis."""

    battle = models.ForeignKey(
        Battle, on_delete=models.CASCADE, related_name="sides", verbose_name=_("battle")
    )
    faction = models.ForeignKey(
        "factions.Faction",
        on_delete=models.PROTECT,
        related_name="battle_sides",
        verbose_name=_("faction"),
    )
    # Protected: deleting a fleet must not erase it from the battles it fought.
    fleet = models.ForeignKey(
        "factions.Fleet",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="battle_sides",
        verbose_name=_("fleet"),
    )
    primary_objective = models.TextField(_("primary objective"), blank=True)
    secondary_objectives = models.TextField(_("secondary objectives"), blank=True)
    analysis = models.TextField(_("tactical analysis (Markdown)"), blank=True)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    history = HistoricalRecords()

    class Meta:
        ordering = ["battle", "order", "pk"]
        verbose_name = _("battle side")
        verbose_name_plural = _("battle sides")
        constraints = [
            models.UniqueConstraint(fields=["battle", "faction"], name="battleside_unique_faction")
        ]

    def __str__(self) -> str:
        return f"{self.battle} — {self.faction}"

    @property
    def is_winner(self) -> bool:
        """True when this side's faction is its battle's ``winner`` (derived, never stored:
        the battle's winner is the one fact). Reads ``self.battle``: select or prefetch it."""
        winner_id = self.battle.winner_id
        return winner_id is not None and winner_id == self.faction_id


class Participant(models.Model):
    """A ship or light-unit group that took part in a battle on one side, and its fate."""

    class Fate(models.TextChoices):
        UNHARMED = "unharmed", _("unharmed")
        DAMAGED = "damaged", _("damaged")
        DESTROYED = "destroyed", _("destroyed")
        CAPTURED = "captured", _("captured")
        FLED = "fled", _("withdrew")

    side = models.ForeignKey(
        BattleSide, on_delete=models.CASCADE, related_name="participants", verbose_name=_("side")
    )
    # Protected, both: deleting a fleet or a ship must not rewrite concluded battles,
    # standings and reports.
    ship = models.ForeignKey(
        "factions.Ship",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="participations",
        verbose_name=_("ship"),
    )
    light_units = models.ForeignKey(
        "factions.LightUnitGroup",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="participations",
        verbose_name=_("light units"),
    )
    fate = models.CharField(_("fate"), max_length=20, choices=Fate.choices, default=Fate.UNHARMED)
    hull_lost = models.PositiveIntegerField(_("hull boxes lost"), default=0)
    armour_lost = models.PositiveIntegerField(_("armour boxes lost"), default=0)
    crew_lost = models.PositiveIntegerField(_("crew factors lost"), default=0)
    systems_lost = models.JSONField(_("systems lost"), default=list, blank=True)
    craft_lost = models.PositiveIntegerField(_("craft lost"), default=0)
    notes = models.TextField(_("notes"), blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["side", "pk"]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ship__isnull=False, light_units__isnull=True)
                | models.Q(ship__isnull=True, light_units__isnull=False),
                name="participant_one_unit",
            ),
            models.UniqueConstraint(
                fields=["side", "ship"],
                condition=models.Q(ship__isnull=False),
                name="participant_unique_ship",
            ),
        ]

    def __str__(self) -> str:
        return str(self.ship or self.light_units)


class Event(models.Model):
    """One entry of a battle's log: a die roll or a rules event, in order.

    ``data`` holds the engine's record as JSON (e.g. ``{"purpose": …, "sides": 6,
    "result": 4}`` for a roll).
    """

    battle = models.ForeignKey(
        Battle, on_delete=models.CASCADE, related_name="events", verbose_name=_("battle")
    )
    sequence = models.PositiveIntegerField(_("sequence"))
    game_turn = models.PositiveIntegerField(_("game turn"), default=0)
    phase = models.PositiveSmallIntegerField(_("phase"), default=0)
    kind = models.CharField(_("kind"), max_length=40)
    summary = models.TextField(_("summary"), blank=True)
    data = models.JSONField(_("data"), default=dict, blank=True)

    class Meta:
        ordering = ["battle", "sequence"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.UniqueConstraint(fields=["battle", "sequence"], name="event_unique_sequence")
        ]

    def __str__(self) -> str:
        return f"{self.battle} #{self.sequence}: {self.summary or self.kind}"


class Report(models.Model):
    """A rendered after-action report file of a battle in one format.

    ``digest`` identifies what the file was rendered from
    (``battles.reports.files.report_render``: a hash of the HTML's text, or for a PDF the
    key of what the report reads, ``battles.reports.keys``); ``version`` is the battle's
    revision number at that time.
    """

    class Format(models.TextChoices):
        HTML = "html", "HTML"
        PDF = "pdf", "PDF"

    class Status(models.TextChoices):
        READY = "ready", _("ready")
        FAILED = "failed", _("failed")

    battle = models.ForeignKey(
        Battle, on_delete=models.CASCADE, related_name="reports", verbose_name=_("battle")
    )
    format = models.CharField(_("format"), max_length=10, choices=Format.choices)
    version = models.PositiveIntegerField(_("battle version"))
    digest = models.CharField(
        _("content digest"),
        max_length=64,
        blank=True,
        help_text=_("SHA-256 of what the file was rendered from; a new digest re-renders it."),
    )
    file = models.FileField(_("file"), upload_to="reports/", max_length=300, blank=True)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.READY
    )
    error = models.TextField(
        _("error"), blank=True, help_text=_("Why the last rendering failed (it is retried).")
    )
    rendered_at = models.DateTimeField(_("rendered"), auto_now=True)

    class Meta:
        ordering = ["battle", "format"]
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        constraints = [
            models.UniqueConstraint(fields=["battle", "format"], name="report_unique_format")
        ]

    def __str__(self) -> str:
        return f"{self.battle} ({self.format}, v{self.version})"


class BattleSnapshot(models.Model):
    """What a battle's conclusion changed, as it was before: written by
    ``battles.services.battle_conclude`` and read back by ``battle_reopen``.

    ``data``: ``{"format": 2, "ships": {pk: {field attname: {"before": value, "after":
    value}}}, "light_units": {…}, "participants": {…}, "battle": {…}, "intel": [ids
    created]}``, each unit with only the fields the conclusion changed; the battle's
    ``winner_id`` is its winner. Snapshots without ``format`` (the first form) hold every
    field of each unit, before only: ``{"ships": {pk: {field attname: value}}, …}``, and
    ``"sides": {pk: is_winner}``, read only when ``winner_id`` names no winner.
    """

    battle = models.OneToOneField(
        Battle, on_delete=models.CASCADE, related_name="snapshot", verbose_name=_("battle")
    )
    data = models.JSONField(_("state before the conclusion"), default=dict)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("battle snapshot")
        verbose_name_plural = _("battle snapshots")

    def __str__(self) -> str:
        return f"{self.battle} (before {self.created_at:%Y-%m-%d %H:%M})"


class BattleAction(models.Model):
    """One entry of a battle's own timeline: who did what, when (shown to organisers)."""

    class Kind(models.TextChoices):
        CREATE = "create", _("set up")
        EDIT = "edit", _("edited")
        RECORD = "record", _("record entry submitted")
        CONFIRM = "confirm", _("record entry confirmed")
        REJECT = "reject", _("record entry rejected")
        RESEED = "reseed", _("auto-resolve re-run with another seed")
        RESOLVE = "resolve", _("resolved")
        CONCLUDE = "conclude", _("concluded")
        REOPEN = "reopen", _("reopened")
        ORDER = "order", _("orders")

    battle = models.ForeignKey(
        Battle, on_delete=models.CASCADE, related_name="actions", verbose_name=_("battle")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="battle_actions",
        verbose_name=_("user"),
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    summary = models.TextField(_("what"), blank=True)
    # The line as a message key and parameters (campaign.core.messages); {} for a
    # person's own words and older rows.
    summary_message = models.JSONField(default=dict, blank=True, editable=False)
    data = models.JSONField(_("data"), default=dict, blank=True)
    at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["battle", "at", "pk"]
        verbose_name = _("battle action")
        verbose_name_plural = _("battle actions")

    def __str__(self) -> str:
        return f"{self.battle}: {self.get_kind_display()} ({self.at:%Y-%m-%d %H:%M})"

    def label(self) -> str:
        """The entry's kind as the timeline shows it, in the active language: told apart
        by its ``data`` where one stored kind covers several doings — the first dice seed
        drawn (``old_seed`` None) is no re-run; a turn-by-turn entry (kind ``order``,
        ``battles.play.engine_io.timeline``) is the start (``max_turns``), a side's
        orders (``side``), a turn played (``auto_sides``) or the end (``reason``)."""
        data = self.data if isinstance(self.data, dict) else {}
        if self.kind == self.Kind.RESEED and data.get("old_seed") is None:
            return gettext("dice seed drawn")
        if self.kind == self.Kind.ORDER:
            for key, text in (
                ("max_turns", gettext_noop("turn-by-turn play started")),
                ("reason", gettext_noop("turn-by-turn play ended")),
                ("auto_sides", gettext_noop("turn played")),
                ("side", gettext_noop("orders submitted")),
            ):
                if key in data:
                    return gettext(text)
        return str(self.get_kind_display())


class RecordEntry(models.Model):
    """One side's account of a battle played on the table, waiting for confirmation.

    ``side`` None: the organiser's entry for every side. ``results``: the entries of
    ``battles.services.battle_record`` (``{"participant", "fate", "hull_lost", …}``).
    The battle concludes when every side with units has a confirmed entry
    (``battles.services.record_confirm``).
    """

    class Status(models.TextChoices):
        SUBMITTED = "submitted", _("waiting for confirmation")
        CONFIRMED = "confirmed", _("confirmed")
        REJECTED = "rejected", _("rejected")

    battle = models.ForeignKey(
        Battle, on_delete=models.CASCADE, related_name="record_entries", verbose_name=_("battle")
    )
    side = models.ForeignKey(
        BattleSide,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="record_entries",
        verbose_name=_("side"),
    )
    results = models.JSONField(_("results"), default=list, blank=True)
    outcome = models.TextField(_("outcome"), blank=True)
    # The side this entry says won (None: it names no winner). Restricted: a side named as
    # the winner cannot be deleted on its own, only with its battle.
    winner = models.ForeignKey(
        BattleSide,
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("winner"),
    )
    game_turns = models.PositiveIntegerField(_("game turns played"), null=True, blank=True)
    narrative = models.TextField(_("narrative (Markdown)"), blank=True)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.SUBMITTED
    )
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("submitted by"),
    )
    submitted_at = models.DateTimeField(_("submitted"), auto_now_add=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["battle", "submitted_at", "pk"]
        verbose_name = _("record entry")
        verbose_name_plural = _("record entries")

    def __str__(self) -> str:
        return f"{self.battle}: {self.side or _('all sides')} ({self.get_status_display()})"
