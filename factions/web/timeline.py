"""A ship's life: its recorded history (django-simple-history on ``Ship``)
merged with its battles, and the state it was in before a given battle.

History rows come from every ``save()`` and from the turn services' bulk updates (built,
each repair step, reopened turns). The battle services write ship damage with plain bulk
updates, so a battle is placed at its conclusion time (``Battle.updated_at``, which
concluding sets) and its "before" is the last history row at or before that time; its
"after" is that state plus the participant's recorded losses. A history row whose change
reason names the battle (``"battle <slug>"``) is taken as the battle's own row if the battle
services start writing history.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from battles.models import Battle
from campaign.core.messages import history_key
from factions.models import Ship

STATE = ("status", "hull_lost", "armour_lost", "crew_lost", "systems_lost")


@dataclass
class TimelineEntry:
    """One step of a ship's life: ``kind`` built / battle / repair / change / reopened /
    removed; ``after`` the state after it (``STATE`` fields), ``before`` for a battle."""

    when: datetime
    kind: str
    label: str
    after: dict[str, Any] = field(default_factory=dict)
    before: dict[str, Any] | None = None
    battle: Battle | None = None


def _state(row: Any) -> dict[str, Any]:
    return {f: getattr(row, f) for f in STATE}


def _kind(row: Any) -> str:
    reason = row.history_change_reason or ""
    if row.history_type == "+":
        return "built"
    if row.history_type == "-":
        return "removed"
    key = history_key(reason)
    if key is not None:  # a stored message: its key says what happened
        return {"turn.repaired": "repair", "turn.reopened": "reopened"}.get(key, "change")
    # Older rows hold an English sentence.
    if "repaired" in reason:
        return "repair"
    if "reopened" in reason:
        return "reopened"
    return "change"


def _after_battle(before: dict[str, Any], p: Any, ship: Ship) -> dict[str, Any]:
    after = dict(before)
    cls = ship.ship_class
    if p.fate == "destroyed":
        after.update(
            status="destroyed",
            hull_lost=cls.hull_boxes,
            armour_lost=cls.armour,
            crew_lost=cls.crew_factors,
        )
    else:
        after["hull_lost"] = min(cls.hull_boxes, before["hull_lost"] + p.hull_lost)
        after["armour_lost"] = min(cls.armour, before["armour_lost"] + p.armour_lost)
        after["crew_lost"] = min(cls.crew_factors, before["crew_lost"] + p.crew_lost)
        after["systems_lost"] = list(before["systems_lost"]) + [
            s for s in p.systems_lost if s not in before["systems_lost"]
        ]
        # The status battles.services.conclude writes: captured, else from the damage.
        damage = {k: after[k] for k in ("hull_lost", "armour_lost", "crew_lost", "systems_lost")}
        after["status"] = Ship.status_for(**damage, captured=p.fate == "captured")
    return after


def ship_timeline(ship: Ship) -> list[TimelineEntry]:
    """The ship's life in time order (two queries plus one for the battles)."""
    rows = list(ship.history.order_by("history_date", "history_id"))
    # A battle's own row (reason "battle <slug>") is told by the battle's entry below.
    entries = [
        TimelineEntry(r.history_date, _kind(r), r.history_change_reason or "", after=_state(r))
        for r in rows
        if not (r.history_change_reason or "").startswith("battle ")
    ]
    parts = ship.participations.filter(side__battle__status=Battle.Status.CONCLUDED).select_related(
        "side__battle"
    )
    for p in parts:
        battle = p.side.battle
        before = _before(rows, battle)
        base = before or {f: getattr(ship, f) for f in STATE}
        entries.append(
            TimelineEntry(
                battle.updated_at,
                "battle",
                battle.name,
                after=_after_battle(base, p, ship),
                before=before,
                battle=battle,
            )
        )
    entries.sort(key=lambda e: (e.when, e.kind != "built"))
    return entries


def _before(rows: list[Any], battle: Battle) -> dict[str, Any] | None:
    tag = f"battle {battle.slug}"
    own = next((i for i, r in enumerate(rows) if tag in (r.history_change_reason or "")), None)
    if own is not None:
        return _state(rows[own - 1]) if own > 0 else None
    earlier = [r for r in rows if r.history_date <= battle.updated_at]
    return _state(earlier[-1]) if earlier else None


def ship_state_before_battle(*, ship: Ship, battle: Battle) -> dict[str, Any] | None:
    """The ship as it stood before ``battle`` (``STATE`` fields), or None when no record
    precedes it (a ship loaded with the battle's damage already applied)."""
    return _before(list(ship.history.order_by("history_date", "history_id")), battle)
