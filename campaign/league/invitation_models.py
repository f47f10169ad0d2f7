"""Invitations to join a campaign (``campaign.league.invitations``): an organiser invites someone
to a role (and a faction, for a player) with a link; the link's token is shown once and
only its SHA-256 is stored (as ``ApiToken``). An invitation is used once, may be revoked,
and expires after ``settings.INVITATION_EXPIRY_DAYS`` days."""

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


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
        from campaign.league.models import Membership

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
