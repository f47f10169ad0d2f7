"""The game systems a battle may be played in, and the rule helpers each one has.

Pure data (no Django): the product lists these on the rules pages, the battle page links the
helpers of its battle's system, and ``Battle.game_system`` takes its choices from here.
Sources: seed 000 (Full Thrust Incursion, the core engine ``battles/rules``) and
seeds 001–004 (one pure package each beside it).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_SYSTEM", "SYSTEMS", "Helper", "System", "get_system"]


@dataclass(frozen=True, slots=True)
class Helper:
    """A helper at the table: ``page`` is a URL name (``""`` when API only), ``api`` the
    path under ``/api/rules``."""

    id: str
    name: str
    name_fr: str
    page: str
    api: str


@dataclass(frozen=True, slots=True)
class System:
    id: str
    name: str
    name_fr: str
    seeds: tuple[str, ...]
    package: str
    helpers: tuple[Helper, ...]


DEFAULT_SYSTEM = "ft-incursion"

SYSTEMS: dict[str, System] = {
    s.id: s
    for s in (
        System(
            "ft-incursion",
            "Full Thrust Incursion",
            "Full Thrust Incursion",
            ("000_a18f01393359aeaf.txt",),
            "battles.rules",
            (Helper("odds", "Weapon odds", "Probabilités des armes", "", "/odds"),),
        ),
        System(
            "starfinder",
            "Starfinder starship combat",
            "Combat spatial Starfinder",
            ("001_4e866e88a26715dc.txt", "003_2018a7fd28c28555.txt"),
            "battles.systems.sf_tokens, battles.systems.sf_boarding",
            (
                Helper(
                    "tokens",
                    "GM action-token tracker",
                    "Suivi des jetons d'action du MJ",
                    "rules-sf-tracker",
                    "/starfinder/tokens/round",
                ),
                Helper(
                    "boarding",
                    "Boarding calculator",
                    "Calculateur d'abordage",
                    "rules-sf-boarding",
                    "/starfinder/boarding/odds",
                ),
            ),
        ),
        System(
            "sw-starship-battles",
            "Star Wars Starship Battles",
            "Star Wars Starship Battles",
            ("002_0b1479542d7e5a90.txt",),
            "battles.systems.swsb",
            (
                Helper(
                    "attack-odds",
                    "Attack odds",
                    "Probabilités d'attaque",
                    "rules-swsb-attack",
                    "/swsb/attack-odds",
                ),
                Helper(
                    "fleet-turn",
                    "Fleet-turn resolver",
                    "Résolution d'un tour de flotte",
                    "",
                    "/swsb/fleet-turn",
                ),
            ),
        ),
        System(
            "epic",
            "Epic-scale ground battles",
            "Batailles terrestres à l'échelle Epic",
            ("004_4cecf0dd21af2ca6.txt",),
            "battles.systems.epic",
            (
                Helper(
                    "abilities",
                    "Special abilities",
                    "Capacités spéciales",
                    "rules-epic",
                    "/epic/abilities",
                ),
            ),
        ),
    )
}


def get_system(system_id: str) -> System:
    """The system of id ``system_id``; ``KeyError`` otherwise (choices are checked by the
    model field before this is called)."""
    return SYSTEMS[system_id]
