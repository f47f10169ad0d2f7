"""The league: campaigns and who plays what role in them."""

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from battles.rules.errors import RulesError
from battles.rules.options import RuleOptions


def validate_time_zone(value: str) -> None:
    """Raise ValidationError unless ``value`` is an IANA time-zone name (zoneinfo)."""
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValidationError(_("%(value)s is not a time zone"), params={"value": value}) from exc


class Campaign(models.Model):
    """A league's campaign; battles, turns and memberships belong to one."""

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=200, unique=True)
    description = models.TextField(_("description (Markdown)"), blank=True)
    factions = models.ManyToManyField(
        "factions.Faction", related_name="campaigns", blank=True, verbose_name=_("factions")
    )
    current_turn = models.PositiveIntegerField(_("current turn"), default=1)
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default="UTC",
        validators=[validate_time_zone],
        help_text=_("IANA name (Europe/Paris…): turn deadlines are shown in it, stored in UTC."),
    )
    turn_settings = models.JSONField(
        _("turn settings"),
        default=dict,
        blank=True,
        help_text=_(
            "Overrides of the repair, construction and income rates (campaign/turns/rates.py)."
        ),
    )
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        default="fr",
        help_text=_(
            "Language of the drafted reports and of the PDFs; the site is baked in every language."
        ),
    )
    rule_options = models.JSONField(
        _("rule options"),
        default=dict,
        blank=True,
        help_text=_(
            "Non-default readings of rules/ft-incursion.md §16, by option name (see the "
            'campaign\'s rules in force page), e.g. {"half_thrust_turn_cap": true}.'
        ),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaign-detail", kwargs={"slug": self.slug})

    def clean(self) -> None:
        """Refuse rule options the engine would refuse (``RuleOptions.from_dict``: every
        option of rules §16 by name, with a value of its type)."""
        from django.core.exceptions import ValidationError

        super().clean()
        try:
            RuleOptions.from_dict(self.rule_options or {})
        except RulesError as exc:
            raise ValidationError({"rule_options": str(exc)}) from exc


class Membership(models.Model):
    """A user's role in a campaign; players belong to one faction."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("organiser")
        PLAYER = "player", _("player")
        CHRONICLER = "chronicler", _("chronicler")

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("campaign")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memberships",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    faction = models.ForeignKey(
        "factions.Faction",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="memberships",
        verbose_name=_("faction"),
    )
    # Who gave, changed or removed a role, and when (campaign.league.members sets the user).
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "user", "role"], name="membership_unique_role"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} ({self.campaign})"


class Intel(models.Model):
    """A ship class a faction has met in a campaign (rules §5: within
    sensor range the class of ships "already encountered in this campaign" is known).

    Written when a battle is concluded (``battles.services.intel.intel_record_battle``); one row per
    (campaign, faction, class), keeping the first battle where it was met.
    """

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="intel", verbose_name=_("campaign")
    )
    faction = models.ForeignKey(
        "factions.Faction",
        on_delete=models.CASCADE,
        related_name="intel",
        verbose_name=_("faction"),
        help_text=_("The faction that knows the class."),
    )
    ship_class = models.ForeignKey(
        "factions.ShipClass",
        on_delete=models.CASCADE,
        related_name="intel",
        verbose_name=_("ship class"),
    )
    first_battle = models.ForeignKey(
        "battles.Battle",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="intel",
        verbose_name=_("first battle"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["campaign", "faction", "ship_class__name"]
        verbose_name = _("intel")
        verbose_name_plural = _("intel")
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "faction", "ship_class"], name="intel_unique_class"
            )
        ]

    def __str__(self) -> str:
        return f"{self.faction} knows {self.ship_class} ({self.campaign})"


class ApiToken(models.Model):
    """A personal API token for scripts (``Authorization: Bearer adm_…``).

    Only the SHA-256 of the token is stored: the token itself is shown once, when it is
    created on the account page (``campaign.league.api_auth.api_token_create``), and cannot be
    read back. Revoking deletes the row. Tokens are 256 random bits, so a plain hash is
    enough (no salt or slow hash needed, as for GitHub's tokens).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("user"),
    )
    name = models.CharField(_("name"), max_length=100)
    prefix = models.CharField(_("prefix"), max_length=12, help_text=_("Start of the token."))
    key_hash = models.CharField(_("key hash"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"


# Invitations to join a campaign (``campaign.league.invitations``): an organiser invites
# someone to a role with a link shown once; only its SHA-256 is kept.
class Invitation(models.Model):
    """An invitation to ``role`` (``Membership.Role``) in ``campaign``, for anyone with
    the link (``email`` only says whom it was sent to)."""

    class State(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("accepted")
        REVOKED = "revoked", _("revoked")
        EXPIRED = "expired", _("expired")

    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="invitations",
        verbose_name=_("campaign"),
    )
    role = models.CharField(_("role"), max_length=20)
    faction = models.ForeignKey(
        "factions.Faction",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="invitations",
        verbose_name=_("faction"),
    )
    email = models.EmailField(_("e-mail"), blank=True)
    token_hash = models.CharField(_("token hash"), max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("accepted by"),
    )
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.campaign} — {self.role} ({self.pk})"

    def get_role_display(self) -> str:
        """The translated role (``Membership.Role``'s label)."""
        return str(Membership.Role(self.role).label)

    def state(self, now: datetime | None = None) -> str:
        """``State`` value: accepted, revoked, expired (at ``now``, default now) or pending."""
        if self.accepted_at is not None:
            return self.State.ACCEPTED
        if self.revoked_at is not None:
            return self.State.REVOKED
        if self.expires_at <= (now or timezone.now()):
            return self.State.EXPIRED
        return self.State.PENDING


class SiteBuild(models.Model):
    """One build of the published site (``settings.SITE_ROOT``): asked for by a change of a
    public page or by an organiser's *Rebuild the site*, run by ``campaign.tasks``.

    At most one row is ``queued`` (a unique condition): requests arriving before it starts
    join it, so a burst of changes gives one build (``campaign.league.site_builds``).
    ``error`` is the failure's technical text, shown as it is; ``written`` the files the
    build wrote (the rest kept from the previous build)."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        SUCCEEDED = "succeeded", _("succeeded")
        FAILED = "failed", _("failed")

    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    full = models.BooleanField(
        _("full"), default=False, help_text=_("Build even where no site was baked before.")
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("requested by"),
    )
    requested_at = models.DateTimeField(_("requested"), default=timezone.now)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    written = models.PositiveIntegerField(_("files written"), default=0)
    error = models.TextField(_("error"), blank=True, default="")

    class Meta:
        ordering = ["-requested_at", "-pk"]
        verbose_name = _("site build")
        verbose_name_plural = _("site builds")
        constraints = [
            models.UniqueConstraint(
                fields=["status"],
                condition=models.Q(status="queued"),
                name="one_queued_site_build",
            )
        ]

    def __str__(self) -> str:
        return f"{self.requested_at:%Y-%m-%d %H:%M} {self.status}"
