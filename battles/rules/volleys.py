"""What a volley leaves for ``damage.py``: :class:`Hit` packets and the :class:`Volley`
record (rules §7–§11). Shared by ``weapons`` (ship-weapon families) and ``defence_fire``
(fire at light units); both modules re-export these names.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import NamedTuple

from battles.rules.weapon_catalogue import DamageType

__all__ = ["Hit", "Volley"]


@dataclass(frozen=True, slots=True)
class Hit:
    """A packet of damage for ``damage.py``: ``damage`` boxes of ``damage_type``.

    Penetrating hits come one box each; ``reroll=True`` marks a hit scored by a re-roll die,
    which goes straight to hull (§7, §11). Piercing hits carry a kinetic / MPC hit's whole
    damage; a semi-piercing packet is a whole torpedo / missile / rocket-pack total (§11).
    """

    damage: int
    damage_type: DamageType
    reroll: bool = False


_damage_of = attrgetter("damage")


class Volley(NamedTuple):
    """What one weapon (or ``count`` identical weapons) did, before damage is applied.

    ``value`` is the measure :mod:`odds` gives the distribution of: damage boxes for damage
    weapons, systems for the lance and EMP, kills (light units lost, plasma strength lost)
    for PD and area weapons.
    """

    weapon: str
    range_mu: float
    screen: int
    target: str
    dice: int
    hits: tuple[Hit, ...] = ()
    kills: int = 0
    systems: int = 0
    value: int = 0

    @property
    def damage(self) -> int:
        """Total damage boxes carried by ``hits``."""
        return sum(map(_damage_of, self.hits))  # sum(h.damage for h in self.hits)

    def notation(self) -> str:
        """One log line, e.g. ``"beam-2 @12mu s1 vs ship: 2 dice → 3 damage (1 re-roll)"``."""
        kind = "kills" if self.kills else "systems" if self.systems else "damage"
        rerolls = sum(1 for h in self.hits if h.reroll)
        extra = f" ({rerolls} re-roll)" if rerolls else ""
        return (
            f"{self.weapon} @{self.range_mu:g}mu s{self.screen} vs {self.target}: "
            f"{self.dice} dice → {self.value} {kind}{extra}"
        )


_HITS: dict[tuple[int, DamageType, bool], Hit] = {}


def _hit(damage: int, damage_type: DamageType, reroll: bool = False) -> Hit:
    """A shared ``Hit(damage, damage_type, reroll)`` (see above)."""
    key = (damage, damage_type, reroll)
    found = _HITS.get(key)
    if found is None:
        found = _HITS[key] = Hit(damage, damage_type, reroll)
    return found


_BEAM_HIT = _hit(1, DamageType.PENETRATING)
_BEAM_REROLL_HIT = _hit(1, DamageType.PENETRATING, True)
