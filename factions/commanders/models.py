"""A faction's commanders and the renown battles gave them.

A :class:`Commander` is in one place at a time: at most one of ``fleet`` (its admiral),
``squadron`` (its commander) and ``ship`` (its captain) is set (a check constraint), and
each of those holds at most one commander (one-to-one). Renown is the sum of the
commander's :class:`RenownAward` rows, each tied to the battle that gave it, so the total
can never disagree with its reasons and a reopened battle takes back exactly its rows
(``factions.commanders.renown``).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q, Sum
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from factions.versioning import VersionedQuerySet


class CommanderQuerySet(VersionedQuerySet):
    """Commanders, with their renown on demand."""

    def with_renown(self) -> CommanderQuerySet:
        """Annotate ``renown`` (int, 0 without awards): the sum of the awards' points, in
        the same query (a subquery, so other annotations are not multiplied)."""
        awards = (
            RenownAward.objects.filter(commander=models.OuterRef("pk"))
            .order_by()
            .values("commander")
            .annotate(total=Sum("points"))
            .values("total")
        )
        return self.annotate(
            renown=models.functions.Coalesce(models.Subquery(awards), models.Value(0))
        )


class Commander(models.Model):
    """An admiral, squadron commander or captain of a faction.

    ``name`` is the name as fleet lists give it ("Admiral Yoje Nesmer"); the same name in
    the same faction is the same person (unique). ``status`` changes only with a battle's
    fate (``killed`` with a destroyed ship, ``captured`` with a captured one) or by hand.
    ``biography`` is Markdown, rendered sanitised (``campaign.core.markdown``).
    """

    class Rank(models.TextChoices):
        ADMIRAL = "admiral", _("admiral")
        COMMODORE = "commodore", _("commodore")
        CAPTAIN = "captain", _("captain")
        COMMANDER = "commander", _("commander")
        OFFICER = "officer", _("officer")

    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        KILLED = "killed", _("killed")
        CAPTURED = "captured", _("captured")

    faction = models.ForeignKey(
        "factions.Faction",
        on_delete=models.CASCADE,
        related_name="commanders",
        verbose_name=_("faction"),
    )
    name = models.CharField(_("name"), max_length=200)
    rank = models.CharField(_("rank"), max_length=20, choices=Rank.choices, default=Rank.OFFICER)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.ACTIVE
    )
    biography = models.TextField(_("biography (Markdown)"), blank=True)
    fleet = models.OneToOneField(
        "factions.Fleet",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="admiral",
        verbose_name=_("admiral of fleet"),
    )
    squadron = models.OneToOneField(
        "factions.Squadron",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="commander",
        verbose_name=_("commander of squadron"),
    )
    ship = models.OneToOneField(
        "factions.Ship",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="captain",
        verbose_name=_("captain of ship"),
    )
    history = HistoricalRecords()

    objects = CommanderQuerySet.as_manager()  # bulk writes change the fleet data version

    class Meta:
        ordering = ["faction", "name"]
        verbose_name = _("commander")
        verbose_name_plural = _("commanders")
        constraints = [
            models.UniqueConstraint(fields=["faction", "name"], name="commander_unique_name"),
            models.CheckConstraint(
                condition=(
                    Q(fleet__isnull=True, squadron__isnull=True)
                    | Q(fleet__isnull=True, ship__isnull=True)
                    | Q(squadron__isnull=True, ship__isnull=True)
                ),
                name="commander_one_place",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("commander-detail", kwargs={"pk": self.pk})

    def clean(self) -> None:
        """Refuse a commander in two places (what the check constraint would refuse with
        an IntegrityError), naming the fields: the admin's form shows it."""
        places = [f for f in ("fleet", "squadron", "ship") if getattr(self, f"{f}_id")]
        if len(places) > 1:
            raise ValidationError(
                {
                    f: _("a commander is in one place at a time: a fleet, a squadron or a ship")
                    for f in places
                }
            )


class RenownAward(models.Model):
    """Renown a battle gave a commander, for one reason (``kind``), in ``points``.

    ``killed`` and ``captured`` rows (0 points) record the fate the battle dealt, so
    reopening the battle knows whose status to give back. ``battle`` is a string reference
    (the battles app sits above this one): deleting a battle deletes its awards.
    """

    class Kind(models.TextChoices):
        VICTORY = "victory", _("victory")
        KILLS = "kills", _("enemy ships destroyed or captured")
        SURVIVAL = "survival", _("brought a damaged ship home")
        KILLED = "killed", _("killed with their ship")
        CAPTURED = "captured", _("captured with their ship")

    commander = models.ForeignKey(
        Commander, on_delete=models.CASCADE, related_name="awards", verbose_name=_("commander")
    )
    battle = models.ForeignKey(
        "battles.Battle",
        on_delete=models.CASCADE,
        related_name="renown_awards",
        verbose_name=_("battle"),
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    points = models.IntegerField(_("points"), default=0)

    class Meta:
        ordering = ["commander", "battle", "kind"]
        verbose_name = _("renown award")
        verbose_name_plural = _("renown awards")
        constraints = [
            models.UniqueConstraint(
                fields=["commander", "battle", "kind"], name="renown_award_unique_kind"
            )
        ]

    def __str__(self) -> str:
        return f"{self.commander}: {self.get_kind_display()} {self.points:+d}"
