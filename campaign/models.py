"""The league: campaigns and who plays what role in them."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Campaign(models.Model):
    """A league's campaign; battles, turns and memberships belong to one."""

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=200, unique=True)
    description = models.TextField(_("description (Markdown)"), blank=True)
    factions = models.ManyToManyField(
        "factions.Faction", related_name="campaigns", blank=True, verbose_name=_("factions")
    )
    current_turn = models.PositiveIntegerField(_("current turn"), default=1)
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
        help_text=_("Non-default readings of rules/ft-incursion.md §16, by D-n id."),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaign-detail", kwargs={"slug": self.slug})


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
    """A ship class a faction has met in a campaign (rules/ft-incursion.md §5: within
    sensor range the class of ships "already encountered in this campaign" is known).

    Written when a battle is concluded (``campaign.intel.intel_record_battle``); one row per
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
