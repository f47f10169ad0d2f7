"""Campaign rule options: the D-n readings of the rules a league may switch.

Source: rules §16 (D-1, D-3, D-11, D-12, D-14, D-16, D-19, D-21, D-26,
D-27, D-30, D-31, D-32, D-33, D-34) plus D-13, D-22 and D-23, whose alternatives are just
as easy to want. Defaults are the reference readings; ``RuleOptions()`` is the reference
game. Reports show :meth:`RuleOptions.non_default`; the campaign's "rules in force" page
lists every option with its reading (``OPTION_HELP``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from battles.rules.errors import RulesError

__all__ = ["DEFAULT_OPTIONS", "OPTION_CHOICES", "OPTION_HELP", "RuleOptions"]

#: Options whose value is one word out of a list (the first is never implied: see defaults).
OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "blip_fire": ("allowed", "forbidden"),
}


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Every switchable reading, named, with the reference default.

    - ``initiative_reroll_ties`` (D-1): tied 2d6 initiative rolls are re-rolled; False keeps
      the previous turn's first player.
    - ``half_thrust_turn_cap`` (D-3): at most ``max(1, T // 2)`` arcs per turn even when
      ``arcs + |Δspeed| ≤ T`` would allow more. Default False: the shared budget alone, so
      the seed's "propulsion de 4 … 3 arcs et augmenter sa vitesse de 1" is legal.
    - ``reroll_against_screens`` (D-11): a natural 6 re-rolls whatever the screen; False
      re-rolls only against unscreened targets.
    - ``reroll_chains`` (D-11): re-rolls chain on further 6s; False allows one re-roll.
    - ``lance_exclusive`` (D-12): in the phase 9 a ship fires a lance it fires nothing but
      lances (« aucun autre système d'armes ne peut être employé en même temps »); its
      defence systems still defend. False: only the lance's FC is exclusive.
    - ``torpedo_point_blank_to_hit`` (D-13): to-hit of a plasma torpedo at 0–3 mu.
    - ``rocket_pack_reroll``, ``mpc_reroll``, ``emp_reroll`` (D-14): these per-die tables
      re-roll 6s like beams (default: no — the seed writes no « relance » for them).
    - ``mpc_dice`` (D-16): dice rolled per MPC.
    - ``fighter_screens_apply`` (D-19): screens count against fighter attacks.
    - ``fighter_reroll`` (D-19): fighter 6s re-roll as §7 says.
    - ``semi_piercing_armour_round_up`` (D-21): ``ceil(D/2)`` to armour, ``floor(D/2)`` to
      hull; False gives armour ``floor(D/2)``.
    - ``damage_control_crew_repel`` (D-22): crew on damage control may also repel boarders.
    - ``boarding_damage`` (D-23): hull boxes per squad not repelled.
    - ``gunboat_profile_range_vs_light`` (D-26): a gunboat fires at light units out to its
      profile's range (12 mu for the PD platform); False: 6 mu (« Portée de tir = 6mu »).
    - ``emp_dice_per_projector`` (D-27): each craft's second EMP projector also rolls 1d6,
      at the nearest other enemy ship within 12 mu; default False: « Dégâts : 1d6 » per
      craft at one target.
    - ``dogfight_profile_dice`` (D-30): in dogfights each craft rolls its profile's dice (a
      heavy fighter 2d6); False: one die per craft.
    - ``carrier_recovery_round_up`` (D-31): a carrier recovers ``ceil(tubes / 2)``
      squadrons a turn (one tube → 1); False rounds down (one tube → 0).
    - ``blip_fire`` (D-32): ``allowed`` (a target seen only as a blip may be fired at, at
      full effect, as far as the weapon reaches — the seed fires a needle nodule at 72 mu,
      past the FC's 54 mu) or ``forbidden`` (only targets within the firer's sensor range
      after ECM).
    - ``ecm_limits_fire_control`` (D-33): fire reaches no further than the FC's 54 mu,
      shortened by 6 mu per ECM level of the target (never below 6 mu); default False: ECM
      acts on sensors only.
    - ``settings_in_orders`` (D-34): pulser modes and needle-nodule power points are
      written with the phase-1 orders; False: chosen at fire, at the measured range.
    """

    initiative_reroll_ties: bool = True
    half_thrust_turn_cap: bool = False
    reroll_against_screens: bool = True
    reroll_chains: bool = True
    lance_exclusive: bool = True
    torpedo_point_blank_to_hit: int = 3
    rocket_pack_reroll: bool = False
    mpc_reroll: bool = False
    emp_reroll: bool = False
    mpc_dice: int = 1
    fighter_screens_apply: bool = True
    fighter_reroll: bool = True
    semi_piercing_armour_round_up: bool = True
    damage_control_crew_repel: bool = False
    boarding_damage: int = 1
    gunboat_profile_range_vs_light: bool = True
    emp_dice_per_projector: bool = False
    dogfight_profile_dice: bool = True
    carrier_recovery_round_up: bool = True
    blip_fire: str = "allowed"
    ecm_limits_fire_control: bool = False
    settings_in_orders: bool = True

    @classmethod
    def from_dict(cls, data: object) -> RuleOptions:
        """Options from a JSON-like dict.

        Raises :class:`RulesError` naming the option for a non-dict, an unknown name, or a
        value of the wrong type: booleans true/false, numbers whole 1–6, words one of
        :data:`OPTION_CHOICES`.
        """
        if not data:
            return cls()
        if not isinstance(data, dict):
            raise RulesError(
                f"rule options must be a mapping of option name to value, got "
                f"{type(data).__name__} (§16)"
            )
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name not in known:
                raise RulesError(f"unknown rule option {name!r} (rules §16: {', '.join(known)})")
            default = getattr(DEFAULT_OPTIONS, name)
            if isinstance(default, bool):
                if not isinstance(value, bool):
                    raise RulesError(f"rule option {name!r} must be true or false (§16)")
            elif isinstance(default, str):
                choices = OPTION_CHOICES[name]
                if value not in choices:
                    raise RulesError(
                        f"rule option {name!r} must be one of {', '.join(choices)} (§16)"
                    )
            elif not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
                raise RulesError(f"rule option {name!r} must be a whole number 1–6 (§16)")
            values[name] = value
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """All options as a JSON-ready dict."""
        return asdict(self)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (forecast workers) as its constructor call: compiled by mypyc, a frozen
        # dataclass cannot be rebuilt by setting its attributes one by one.
        return (RuleOptions, tuple(getattr(self, f.name) for f in fields(self)))

    def non_default(self) -> dict[str, Any]:
        """Only the options that differ from the reference (shown on reports, §16)."""
        return {k: v for k, v in asdict(self).items() if getattr(DEFAULT_OPTIONS, k) != v}


DEFAULT_OPTIONS = RuleOptions()

#: The D-n each option implements, for forms, reports and the "rules in force" page.
OPTION_HELP: dict[str, str] = {
    "initiative_reroll_ties": "D-1",
    "half_thrust_turn_cap": "D-3",
    "reroll_against_screens": "D-11",
    "reroll_chains": "D-11",
    "lance_exclusive": "D-12",
    "torpedo_point_blank_to_hit": "D-13",
    "rocket_pack_reroll": "D-14",
    "mpc_reroll": "D-14",
    "emp_reroll": "D-14",
    "mpc_dice": "D-16",
    "fighter_screens_apply": "D-19",
    "fighter_reroll": "D-19",
    "semi_piercing_armour_round_up": "D-21",
    "damage_control_crew_repel": "D-22",
    "boarding_damage": "D-23",
    "gunboat_profile_range_vs_light": "D-26",
    "emp_dice_per_projector": "D-27",
    "dogfight_profile_dice": "D-30",
    "carrier_recovery_round_up": "D-31",
    "blip_fire": "D-32",
    "ecm_limits_fire_control": "D-33",
    "settings_in_orders": "D-34",
}
