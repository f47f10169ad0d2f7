"""The rule tables as data: per-die hit tables, PD, thresholds, damage control, boarding.

Source: rules §7 (hit table), §10 (PD), §11 (threshold checks), §12 (damage
control), §13 (boarding), §8 (kinetic re-roll, torpedo/missile to-hit bands are in
``weapons.py``). Each table is indexed by die face 1..6 through ``table[face - 1]``.
"""

from __future__ import annotations

from battles.rules.errors import BadArgument, whole_number

__all__ = [
    "BEAM_TABLE",
    "BEAM_TABLE_NO_SCREEN",
    "BOARDING_THRESHOLD",
    "DAMAGE_CONTROL_THRESHOLD",
    "FUSILIER_BOARDING_THRESHOLD",
    "MARINES_REPEL_THRESHOLD",
    "FUSILIER_MARINES_REPEL_THRESHOLD",
    "MAX_CREW_PER_TASK",
    "PD_TABLE",
    "PD_GUNBOAT_MODIFIER",
    "CLASS1_PD_THRESHOLD",
    "AREA_PLASMA_TABLE",
    "SCATTERGUN_SHIP_TABLE",
    "REROLL_FACE",
    "beam_hits",
    "threshold_for_row",
    "crew_threshold",
]

#: §7: hits per die face 1..6, by screen level 0..3.
BEAM_TABLE: tuple[tuple[int, ...], ...] = (
    (0, 0, 0, 1, 1, 2),  # no screen
    (0, 0, 0, 0, 1, 2),  # level 1
    (0, 0, 0, 0, 1, 1),  # level 2
    (0, 0, 0, 0, 0, 1),  # level 3
)
#: The §7 row used by weapons that ignore screens (rocket pack, MPC).
BEAM_TABLE_NO_SCREEN: tuple[int, ...] = BEAM_TABLE[0]
#: §7 (D-11): a natural 6 grants a re-roll of that die, whatever the screen.
REROLL_FACE = 6

#: §10: PD / ADAF / spicule kills per die face 1..6.
PD_TABLE: tuple[int, ...] = (0, 0, 0, 1, 1, 2)
#: §9, §10: anti-fighter fire against gunboats is at −2 on the die (D-20: a PD-table 6 then
#: kills one gunboat, never two; area weapons, see ``weapons.area_loss``).
PD_GUNBOAT_MODIFIER = -2
#: §8, §10: class-1 beam / class-1 kinetic / pulser acting as PD kill 1 on 5+.
CLASS1_PD_THRESHOLD = 5

#: §8 interceptor nodule, §10 scattergun: plasma target strength loss per face 1..6.
AREA_PLASMA_TABLE: tuple[int, ...] = (0, 0, 0, 1, 1, 2)
#: §10 scattergun against a ship: damage per face 1..6, no re-roll.
SCATTERGUN_SHIP_TABLE: tuple[int, ...] = (0, 0, 0, 1, 1, 2)

#: §12, §13: at most 3 crew factors on one task.
MAX_CREW_PER_TASK = 3
#: §12: crew factors assigned (1..3) → lowest face that repairs.
DAMAGE_CONTROL_THRESHOLD: dict[int, int] = {1: 6, 2: 5, 3: 4}
#: §13: crew factors assigned → lowest face that repels a marine squad.
BOARDING_THRESHOLD: dict[int, int] = {1: 6, 2: 5, 3: 4}
#: §13: Norwegian fusiliers: 1 crew cannot repel (None), 2 → 6, 3 → 5+.
FUSILIER_BOARDING_THRESHOLD: dict[int, int | None] = {1: None, 2: 6, 3: 5}
#: §13: an embarked friendly marine squad repels marines on 4+ …
MARINES_REPEL_THRESHOLD = 4
#: … and fusiliers on 5+.
FUSILIER_MARINES_REPEL_THRESHOLD = 5


def beam_hits(face: object, screen: object) -> int:
    """Hits scored by one die showing ``face`` (1..6) against ``screen`` (0..3), §7.
    ``BadArgument`` naming ``face`` or ``screen`` when outside those ranges or not an int."""
    # (``object``: a wrong type reaches these checks, not the compiled engine's TypeError)
    if not 1 <= (die := _whole(face, "face", "beam_hits")) <= 6:
        raise BadArgument(f"beam_hits: face must be 1–6 (a d6), got {face!r} (§7)")
    if not 0 <= (level := _whole(screen, "screen", "beam_hits")) < len(BEAM_TABLE):
        raise BadArgument(f"beam_hits: screen must be 0–3, got {screen!r} (§7)")
    return BEAM_TABLE[level][die - 1]


def threshold_for_row(row_number: object) -> int:
    """Lowest face that destroys a system when hull row ``row_number`` (1-based) is completed.

    §11: first row → 6, second → 5+, third and later → 4+. ``BadArgument`` naming
    ``row_number`` unless it is a whole number ≥ 1.
    """
    if type(row_number) is not int or row_number < 1:
        whole_number(
            row_number,
            "row_number",
            "threshold_for_row: hull rows are numbered from 1 (§11)",
            minimum=1,
        )
    return 6 if row_number == 1 else 5 if row_number == 2 else 4


def crew_threshold(table: dict[int, int] | dict[int, int | None], crew: object) -> int | None:
    """Lowest face that succeeds with ``crew`` factors on ``table`` (§12/§13); None = cannot.

    Crew above 3 counts as 3 (the maximum); crew below 1 cannot act. ``BadArgument``
    naming ``crew`` unless it is a whole number.
    """
    crew = _whole(crew, "crew", "crew_threshold")
    if crew < 1:
        return None
    return table[min(crew, MAX_CREW_PER_TASK)]


def _whole(value: object, field: str, where: str) -> int:
    """``value`` when an int (not a bool), else ``BadArgument`` naming ``field``."""
    if type(value) is int or isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    raise BadArgument(
        f"{where}: {field} must be a whole number, got {value!r} ({type(value).__name__})"
    )
