"""A faction's treasury in a campaign: the sum of its ledger (``LedgerEntry``).

Every credit and debit is a row with who, when and why; there is no stored
balance to drift from it. A balance stays between 0 and ``campaign.core.limits.NUMBER_MAX``:
debits the faction cannot cover and adjustments past the maximum are refused, turn-end
income past it is capped (:func:`income_capped`).

**Locking.** With no balance row to lock, every service that reads a balance to decide a
write takes :func:`treasury_lock` first — the campaign's row ``SELECT … FOR UPDATE``, the
row a turn close locks too — so two adjustments, a payment and an adjustment, or an
adjustment and a turn's income, run one after the other on PostgreSQL and the second sees
the first's entry (SQLite serialises writers anyway).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Sum
from django.utils.translation import gettext as _

from campaign.core import limits
from campaign.league.models import Campaign
from campaign.league.roles import is_organiser
from campaign.turns.errors import TurnActionError, TurnPermissionError, field_label
from campaign.turns.models import LedgerEntry
from factions.models import Faction


@dataclass(frozen=True)
class Balance:
    """Resources and technology a faction holds in a campaign."""

    resources: int = 0
    technology: int = 0


def treasury_balance(*, campaign: Campaign, faction: Faction) -> Balance:
    """The faction's balance: sums of its ledger entries in ``campaign`` (one query)."""
    sums = LedgerEntry.objects.filter(campaign=campaign, faction=faction).aggregate(
        r=Sum("resources"), t=Sum("technology")
    )
    return Balance(sums["r"] or 0, sums["t"] or 0)


def treasury_balances(
    *, campaign: Campaign, faction_ids: set[int] | None = None
) -> dict[int, Balance]:
    """Balances by faction id of the campaign's factions (or of ``faction_ids``); one query."""
    qs = LedgerEntry.objects.filter(campaign=campaign)
    if faction_ids is not None:
        qs = qs.filter(faction_id__in=faction_ids)
    rows = qs.values("faction_id").annotate(r=Sum("resources"), t=Sum("technology"))
    return {row["faction_id"]: Balance(row["r"] or 0, row["t"] or 0) for row in rows}


def treasury_lock(campaign: Campaign) -> None:
    """Lock ``campaign``'s treasuries until the transaction ends (its row, ``SELECT … FOR
    UPDATE``; module docstring). Call inside ``transaction.atomic()``, before reading a
    balance; raises ``TransactionManagementError`` outside one (on PostgreSQL)."""
    Campaign.objects.select_for_update().filter(pk=campaign.pk).values_list("pk").first()


def income_capped(held: Balance, resources: int, technology: int) -> tuple[Balance, Balance]:
    """Turn-end income of ``resources`` and ``technology`` for a faction holding ``held``:
    ``(credited, not credited)``, the credit cut so the balance stays at most
    ``campaign.core.limits.NUMBER_MAX`` (the maximum adjustments are refused past)."""
    room_r = max(0, limits.NUMBER_MAX - held.resources)
    room_t = max(0, limits.NUMBER_MAX - held.technology)
    credited = Balance(min(resources, room_r), min(technology, room_t))
    return credited, Balance(resources - credited.resources, technology - credited.technology)


def treasury_check(
    *, campaign: Campaign, faction: Faction, resources: int, technology: int = 0
) -> None:
    """Raise :class:`TurnActionError` naming the field if ``faction`` cannot pay.

    Locks the campaign's treasuries first (:func:`treasury_lock`): call it inside the
    ``transaction.atomic()`` that writes the debit, so no other payment slips in between."""
    treasury_lock(campaign)
    balance = treasury_balance(campaign=campaign, faction=faction)
    if resources > balance.resources:
        raise TurnActionError(
            _("resources: %(faction)s has %(balance)s, %(needed)s needed")
            % {"faction": faction.name, "balance": balance.resources, "needed": resources}
        )
    if technology > balance.technology:
        raise TurnActionError(
            _("technology: %(faction)s has %(balance)s, %(needed)s needed")
            % {"faction": faction.name, "balance": balance.technology, "needed": technology}
        )


def treasury_adjust(
    *, campaign: Campaign, faction: Faction, resources: int, technology: int = 0, reason: str, user
) -> LedgerEntry:
    """An organiser's adjustment (credit or debit) with its reason; returns the entry.

    Raises :class:`TurnPermissionError` unless ``user`` organises ``campaign``;
    :class:`TurnActionError` for a faction not in the campaign, no reason, nothing to
    adjust, a debit the faction cannot cover (a treasury never goes below zero), or a
    credit that would take the resources or technology held past
    ``campaign.core.limits.NUMBER_MAX`` (the message names the field). Locked against
    concurrent adjustments, payments and turn closes (:func:`treasury_lock`).
    """
    if not is_organiser(user, campaign):
        raise TurnPermissionError(
            _("only an organiser of %(campaign)s adjusts treasuries") % {"campaign": campaign.name}
        )
    if not campaign.factions.filter(pk=faction.pk).exists():
        raise TurnActionError(
            _("faction: %(faction)s does not play in %(campaign)s")
            % {"faction": faction.name, "campaign": campaign.name}
        )
    if not (reason or "").strip():
        raise TurnActionError(_("reason: say why the treasury is adjusted"))
    if abs(resources) > limits.NUMBER_MAX or abs(technology) > limits.NUMBER_MAX:
        raise TurnActionError(
            _("resources: %(r)s resources, %(t)s technology: out of range (at most %(max)s)")
            % {"r": resources, "t": technology, "max": limits.NUMBER_MAX}
        )
    if not resources and not technology:
        raise TurnActionError(_("resources: nothing to adjust (0 resources, 0 technology)"))
    with transaction.atomic():
        treasury_lock(campaign)  # a concurrent adjustment waits for this one's entry
        balance = treasury_balance(campaign=campaign, faction=faction)
        if balance.resources + resources < 0 or balance.technology + technology < 0:
            raise TurnActionError(
                _(
                    "resources: %(faction)s has %(resources)s resources and "
                    "%(technology)s technology; the debit would leave less than 0"
                )
                % {
                    "faction": faction.name,
                    "resources": balance.resources,
                    "technology": balance.technology,
                }
            )
        for field, held, change in (
            ("resources", balance.resources, resources),
            ("technology", balance.technology, technology),
        ):
            if held + change > limits.NUMBER_MAX:
                raise TurnActionError(
                    _(
                        "%(field)s: %(faction)s holds %(held)s; adding %(change)s would pass "
                        "the maximum of %(max)s"
                    )
                    % {
                        "field": field_label(field),
                        "faction": faction.name,
                        "held": held,
                        "change": change,
                        "max": limits.NUMBER_MAX,
                    }
                )
        return LedgerEntry.objects.create(
            campaign=campaign,
            faction=faction,
            turn=campaign.current_turn,
            kind=LedgerEntry.Kind.ADJUSTMENT,
            resources=resources,
            technology=technology,
            reason=reason.strip()[:300],
            user=user if getattr(user, "is_authenticated", False) else None,
        )
