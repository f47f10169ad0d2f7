"""What is told, to whom, and what became of each message.

A user who never changed their preferences gets every kind by e-mail (a row exists only for
a kind they turned off or back on): the events are few, and each concerns them (their
turn, their battle, their confirmation). A campaign's webhook is told only of the
:data:`WEBHOOK_KINDS`, the ones every member and the public may know of: a channel is read
by people of every faction.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    """The events a member may be told of."""

    TURN_OPENED = "turn_opened", _("a campaign turn opened")
    DEADLINE_NEAR = "deadline_near", _("a campaign turn's deadline 24 hours away")
    ORDERS_DUE = "orders_due", _("your orders due in a battle fought turn by turn")
    TURN_PLAYED = "turn_played", _("a battle turn played")
    ENTRY_AWAITING = "entry_awaiting", _("a record entry awaiting your confirmation")
    BATTLE_CONCLUDED = "battle_concluded", _("a battle concluded")
    REPORT_PUBLISHED = "report_published", _("a report published")


#: The kinds a campaign's webhook may post: nothing a rival faction may not know (a draft
#: battle's turns and record entries are its sides' and organisers' business).
WEBHOOK_KINDS: tuple[str, ...] = (
    Kind.TURN_OPENED,
    Kind.DEADLINE_NEAR,
    Kind.BATTLE_CONCLUDED,
    Kind.REPORT_PUBLISHED,
)

#: A delivery's kind when an organiser tests the webhook (not a preference).
TEST_KIND = "test"


class NotificationPreference(models.Model):
    """Whether ``user`` is e-mailed ``kind``; no row means yes."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notification_preferences",
        verbose_name=_("user"),
    )
    kind = models.CharField(_("kind"), max_length=30, choices=Kind.choices)
    email = models.BooleanField(_("by e-mail"), default=True)

    class Meta:
        verbose_name = _("notification preference")
        verbose_name_plural = _("notification preferences")
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="notify_preference_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.kind}: {'on' if self.email else 'off'}"


class NotificationProfile(models.Model):
    """The language ``user``'s notifications are written in; empty (or no row): each
    campaign's language (``Campaign.language``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notification_profile",
        verbose_name=_("user"),
    )
    language = models.CharField(_("language"), max_length=8, blank=True, choices=settings.LANGUAGES)

    class Meta:
        verbose_name = _("notification language")
        verbose_name_plural = _("notification languages")

    def __str__(self) -> str:
        return f"{self.user} — {self.language or '-'}"


class CampaignWebhook(models.Model):
    """The campaign's channel: a Discord(-compatible) webhook address, the kinds it is
    told of (a subset of :data:`WEBHOOK_KINDS`), and the last delivery's result."""

    campaign = models.OneToOneField(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="webhook",
        verbose_name=_("campaign"),
    )
    url = models.URLField(_("webhook address"), max_length=500)
    kinds = models.JSONField(_("kinds"), default=list, blank=True)
    enabled = models.BooleanField(_("enabled"), default=True)
    last_status = models.CharField(_("last result"), max_length=10, blank=True)
    last_error = models.TextField(_("last error"), blank=True)
    last_at = models.DateTimeField(_("last delivery"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("updated by"),
    )

    class Meta:
        verbose_name = _("campaign webhook")
        verbose_name_plural = _("campaign webhooks")

    def __str__(self) -> str:
        return f"{self.campaign} webhook"


class Delivery(models.Model):
    """One message to one address: an e-mail to ``user`` or a post to ``webhook``, its
    text as written when the event happened, and every attempt's outcome (``attempts``,
    ``last_error``, ``status``). ``turn`` is set for the deadline reminder, which goes
    once per turn and recipient (the unique constraints)."""

    class Channel(models.TextChoices):
        EMAIL = "email", _("e-mail")
        WEBHOOK = "webhook", _("webhook")

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")

    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="deliveries",
        verbose_name=_("campaign"),
    )
    kind = models.CharField(_("kind"), max_length=30)
    channel = models.CharField(_("channel"), max_length=10, choices=Channel.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="deliveries",
        verbose_name=_("recipient"),
    )
    webhook = models.ForeignKey(
        CampaignWebhook,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="deliveries",
        verbose_name=_("webhook"),
    )
    turn = models.ForeignKey(
        "turns.CampaignTurn",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("campaign turn"),
    )
    address = models.CharField(_("address"), max_length=254, blank=True)
    language = models.CharField(_("language"), max_length=8)
    subject = models.CharField(_("subject"), max_length=300)
    body = models.TextField(_("body"))
    link = models.CharField(_("link"), max_length=500, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")
        constraints = [
            models.UniqueConstraint(
                fields=["turn", "kind", "user"],
                condition=Q(turn__isnull=False, user__isnull=False),
                name="notify_reminder_once_per_user",
            ),
            models.UniqueConstraint(
                fields=["turn", "kind", "webhook"],
                condition=Q(turn__isnull=False, webhook__isnull=False),
                name="notify_reminder_once_per_webhook",
            ),
        ]
        indexes = [models.Index(fields=["campaign", "-created_at"], name="notify_delivery_recent")]

    def __str__(self) -> str:
        return f"{self.kind} → {self.address or self.channel} ({self.status})"
