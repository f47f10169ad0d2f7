"""Campaign rule options: the D-n readings of rules/ft-incursion.md a league may switch.

Source: rules/ft-incursion.md §16 (D-1, D-3, D-11, D-14, D-16, D-19, D-21) plus D-13, D-22
and D-23, whose alternatives are just as easy to want. Defaults are the reference readings;
``RuleOptions()`` is the reference game. Reports show :meth:`RuleOptions.non_default`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from .errors import RulesError

__all__ = ["DEFAULT_OPTIONS", "OPTION_HELP", "RuleOptions"]


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Every switchable reading, named, with the reference default.

    - ``initiative_reroll_ties`` (D-1): tied 2d6 initiative rolls are re-rolled; False keeps
      the previous turn's first player.
    - ``half_thrust_turn_cap`` (D-3): at most ``max(1, T // 2)`` arcs per turn even when
      ``arcs + |Δspeed| ≤ T`` would allow more; False follows the seed's "thrust 4: 3 arcs
      and +1" example.
    - ``reroll_against_screens`` (D-11): a natural 6 re-rolls whatever the screen; False
      re-rolls only against unscreened targets.
    - ``reroll_chains`` (D-11): re-rolls chain on further 6s; False allows one re-roll.
    - ``torpedo_point_blank_to_hit`` (D-13): to-hit of a plasma torpedo at 0–3 mu.
    - ``rocket_pack_reroll`` (D-14): rocket packs re-roll 6s like beams (default: no).
    - ``mpc_dice`` (D-16): dice rolled per MPC.
    - ``fighter_screens_apply`` (D-19): screens count against fighter attacks.
    - ``fighter_reroll`` (D-19): fighter 6s re-roll as §7 says.
    - ``semi_piercing_armour_round_up`` (D-21): ``ceil(D/2)`` to armour, ``floor(D/2)`` to
      hull; False gives armour ``floor(D/2)``.
    - ``damage_control_crew_repel`` (D-22): crew on damage control may also repel boarders.
    - ``boarding_damage`` (D-23): hull boxes per squad not repelled.
    """

    initiative_reroll_ties: bool = True
    half_thrust_turn_cap: bool = True
    reroll_against_screens: bool = True
    reroll_chains: bool = True
    torpedo_point_blank_to_hit: int = 3
    rocket_pack_reroll: bool = False
    mpc_dice: int = 1
    fighter_screens_apply: bool = True
    fighter_reroll: bool = True
    semi_piercing_armour_round_up: bool = True
    damage_control_crew_repel: bool = False
    boarding_damage: int = 1

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> RuleOptions:
        """Options from a JSON-like dict (unknown names or wrong types → :class:`RulesError`)."""
        if not data:
            return cls()
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name not in known:
                raise RulesError(f"unknown rule option {name!r} (rules §16: {', '.join(known)})")
            default = getattr(DEFAULT_OPTIONS, name)
            if isinstance(default, bool):
                if not isinstance(value, bool):
                    raise RulesError(f"rule option {name!r} must be true or false (§16)")
            elif not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
                raise RulesError(f"rule option {name!r} must be a whole number 1–6 (§16)")
            values[name] = value
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """All options as a JSON-ready dict."""
        return asdict(self)

    def non_default(self) -> dict[str, Any]:
        """Only the options that differ from the reference (shown on reports, §16)."""
        return {k: v for k, v in asdict(self).items() if getattr(DEFAULT_OPTIONS, k) != v}


DEFAULT_OPTIONS = RuleOptions()

#: The D-n each option implements, for forms and reports.
OPTION_HELP: dict[str, str] = {
    "initiative_reroll_ties": "D-1",
    "half_thrust_turn_cap": "D-3",
    "reroll_against_screens": "D-11",
    "reroll_chains": "D-11",
    "torpedo_point_blank_to_hit": "D-13",
    "rocket_pack_reroll": "D-14",
    "mpc_dice": "D-16",
    "fighter_screens_apply": "D-19",
    "fighter_reroll": "D-19",
    "semi_piercing_armour_round_up": "D-21",
    "damage_control_crew_repel": "D-22",
    "boarding_damage": "D-23",
}
