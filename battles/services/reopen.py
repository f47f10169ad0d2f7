"""Undoing a battle's conclusion: :func:`battle_reopen`, and :func:`reopen_blockers`,
the reasons it is refused (a later battle of the same ships, :data:`REOPEN_CHECKS`).

What is put back is what the conclusion's snapshot kept (``battles.services.snapshot``);
the units are locked as the conclusion locks them, so the two never interleave.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from battles.models import (
    Battle,
    BattleAction,
    BattleSide,
    BattleSnapshot,
    Event,
    Participant,
    Report,
)
from battles.services.common import BattleActionError, battle_label, locked
from battles.services.permissions import require_battle_organiser
from battles.services.snapshot import (
    SNAPSHOT_FORMAT,
    lock_units,
    restore_changes,
    restore_legacy,
)
from battles.signals import battle_reopened
from campaign.core.messages import StoredMessage, message, message_of, text_of
from campaign.core.signals import public_change
from campaign.league.models import Intel
from campaign.turns.repairs import RepairsBlockBattleReopen, repairs_release_for_battle
from factions.commanders.renown import renown_revoke_battle

__all__ = ["REOPEN_CHECKS", "battle_reopen", "reopen_blockers"]


#: Checks run before a reopen; each returns refusal messages (e.g. repair orders that
#: depend on the battle's damage). Extend with ``REOPEN_CHECKS.append(fn)``.
REOPEN_CHECKS: list[Callable[[Battle], Sequence[str]]] = []


def reopen_blockers(*, battle: Battle) -> list[str]:
    """Why ``battle`` cannot be reopened, as messages (empty: it can): a later concluded
    battle of the same ships or light units, then each of :data:`REOPEN_CHECKS`."""
    ship_ids = list(
        Participant.objects.filter(side__battle=battle, ship__isnull=False).values_list(
            "ship_id", flat=True
        )
    )
    group_ids = list(
        Participant.objects.filter(side__battle=battle, light_units__isnull=False).values_list(
            "light_units_id", flat=True
        )
    )
    later = (
        Battle.objects.filter(status=Battle.Status.CONCLUDED, concluded_at__gt=battle.concluded_at)
        .exclude(pk=battle.pk)
        .filter(
            Q(sides__participants__ship_id__in=ship_ids)
            | Q(sides__participants__light_units_id__in=group_ids)
        )
        .distinct()
        .order_by("concluded_at", "pk")
    )
    messages = [
        _("%(battle)s was concluded later with the same ships; reopen it first")
        % {"battle": battle_label(other)}
        for other in later
    ]
    for check in REOPEN_CHECKS:
        messages += list(check(battle))
    return messages


def _release_repairs(battle: Battle, user: Any) -> StoredMessage | None:
    """Repair orders placed on the battle's damage: cancelled and refunded if the yard has
    done nothing yet, else the reopen is refused (``campaign.turns.repairs``). Returns the
    line naming the refunded orders' ships and the resources given back, None when there
    were none, so the organiser learns that the treasury moved."""
    try:
        orders = repairs_release_for_battle(battle=battle, user=user)
    except RepairsBlockBattleReopen as exc:
        raise BattleActionError(str(exc)) from exc
    if not orders:
        return None
    return message(
        "battle.repairs_refunded",
        ships=", ".join(str(o.ship) for o in orders),
        total=sum(o.refunded for o in orders),
    )


def _winner_before(battle: Battle, data: dict[str, Any]) -> int | None:
    """The winner (faction id) a reopened battle goes back to: the snapshot's
    ``battle.winner_id``; a snapshot written while sides still stored a winner flag of
    their own (``"sides": {pk: is_winner}``) gives it when the battle had none."""
    winner_id = data["battle"].get("winner_id")
    flagged = [int(pk) for pk, won in (data.get("sides") or {}).items() if won]
    if winner_id is None and len(flagged) == 1:
        side = BattleSide.objects.filter(pk=flagged[0], battle=battle).first()
        winner_id = side.faction_id if side else None
    return winner_id


def battle_reopen(*, battle: Battle, user: Any, reason: str = "") -> Battle:
    """Undo a battle's conclusion; returns the battle, a draft again.

    Puts back the value before the conclusion of every ship, light-unit group and
    participant field the conclusion changed, and every battle field, as the
    snapshot kept them (:func:`battle_conclude`); a field it did not change (a name, a
    captain, a squadron, a note set since) is left as it is. A snapshot of the first form
    (every field, before only) puts back the fields of :data:`LEGACY_FIELDS`. Deletes the
    intel rows the conclusion created, its renown awards (commanders it killed or
    captured are active again: ``factions.commanders.renown``), the battle's log
    (``Event``) and its reports (rows
    and files), and adds a timeline entry. Ships and groups are locked as in
    :func:`battle_conclude`.
    Raises :class:`BattleActionError` when the battle is not concluded, has no snapshot
    (concluded before snapshots were kept, e.g. loaded from the sample), a field the
    conclusion wrote was changed since (naming the unit, the field and both values), or
    :func:`reopen_blockers` names a reason (the later battle first), or repairs were
    already done on its damage; repair orders on it that did nothing yet are cancelled and
    refunded (``campaign.turns.repairs.repairs_release_for_battle``): the timeline line
    names them, and so does the returned battle's ``repairs_refunded`` (a stored message,
    None when none was). One transaction.
    ``user`` must organise the campaign (:class:`~campaign.core.refusals.Refused`).
    """
    require_battle_organiser(user, battle.campaign)
    with transaction.atomic():
        b = locked(battle, draft=False)
        lock_units(b)
        snap = BattleSnapshot.objects.filter(battle=b).first()
        if snap is None:
            raise BattleActionError(
                _(
                    "%(battle)s was concluded without a snapshot of the ships before it "
                    "(loaded or recorded before reopening existed): it cannot be undone"
                )
                % {"battle": battle_label(b)}
            )
        blockers = reopen_blockers(battle=b)
        if blockers:
            raise BattleActionError(
                _("%(battle)s: %(blockers)s")
                % {"battle": battle_label(b), "blockers": "; ".join(blockers)}
            )
        refunds = _release_repairs(b, user)
        data = snap.data
        if data.get("format") == SNAPSHOT_FORMAT:
            restore_changes(b, data)
        else:
            restore_legacy(data)
        Intel.objects.filter(pk__in=data.get("intel", [])).delete()
        renown_revoke_battle(battle_id=b.pk)
        Event.objects.filter(battle=b).delete()
        for report in Report.objects.filter(battle=b):
            if report.file:
                report.file.delete(save=False)
            report.delete()
        # A snapshot taken before outcomes were stored as messages has no outcome_message.
        b.outcome_message = {}
        for k, v in data["battle"].items():
            setattr(b, k, v)
        b.winner_id = _winner_before(b, data)
        b.status = Battle.Status.DRAFT
        b.concluded_at = None
        b.version += 1
        b.save()
        snap.delete()
        line: str | StoredMessage = reason or message("battle.reopened")
        if refunds is not None:
            line = message("battle.reopened_refunded", reopened=line, refunds=refunds)
        BattleAction.objects.create(
            battle=b,
            user=user if getattr(user, "is_authenticated", False) else None,
            kind=BattleAction.Kind.REOPEN,
            summary=text_of(line),
            summary_message=message_of(line),
        )
        # Its victory points go with it (battles.scoring.receivers).
        battle_reopened.send(sender=Battle, battle=b)
        # The site shows it concluded until rebuilt (queued after the commit).
        public_change.send(sender=Battle, campaign=b.campaign, full=False)
    # The page tells the organiser what else the reopen undid (not stored: the timeline
    # line above holds it).
    b.repairs_refunded = refunds
    return b
