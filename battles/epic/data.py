"""Epic-scale special abilities as data, in the seed's order.

Source: ``seeds/004_4cecf0dd21af2ca6.txt`` (a glossary of "Capacité Spéciale" entries);
``rules/other-systems.md`` §D. Several entries lost their name in the seed; they are named by
their effect (O-4) and marked ``named_in_seed=False``. Three entries lost their text too and
are left out. ``resolver`` names the function of :mod:`.resolve` that applies the ability,
"" when it changes no number (orders, characters).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ABILITIES", "Ability", "get_ability"]


@dataclass(frozen=True, slots=True)
class Ability:
    id: str
    kind: str  # "unit" or "weapon"
    name: str
    name_fr: str
    named_in_seed: bool
    summary: str
    parameter: str = ""  # "X" when the ability takes a value: shields, DR, transport…
    resolver: str = ""


def _ab(*args: object, **kw: object) -> Ability:
    return Ability(*args, **kw)  # type: ignore[arg-type]


ABILITIES: dict[str, Ability] = {
    a.id: a
    for a in (
        _ab("indirect-fire", "weapon", "Indirect fire", "Tir indirect", False,
            "May fire indirectly (core rules p. 37)."),
        _ab("energy-shields", "unit", "Energy shields", "Boucliers Énergétiques", True,
            "A hit of AP 1 or more destroys a shield instead of hurting the base; AP 0 (or "
            "weaker) hits do nothing while a shield stands; each lost shield returns on 4+ "
            "in the end phase; a 4+ psychic save while any shield stands.",
            "X", "energy_shields"),
        _ab("camouflage", "unit", "Camouflage", "Camouflage", True,
            "In terrain giving a to-hit penalty, not visible beyond 25 cm; after it fired, a "
            "shooter beyond 25 cm must roll 4+ to see it; lost in assault.",
            "", "camouflage_visibility"),
        _ab("charismatic", "unit", "Charismatic", "Charismatique", True,
            "Friendly detachments with a base within 12 cm get +1 to morale tests.",
            "", "aura_applies"),
        _ab("close-defence", "unit", "Close defence", "Défenses Rapprochées (DR)", True,
            "X shots at 7+ (interception, AP 0) or 6+ (counter-charge, AP 0), 15 cm, 360°, "
            "useless against class 3 or more.", "X", "close_defence"),
        _ab("elite", "unit", "Elite", "Elite", True,
            "Army elite re-rolls: one die per roll (to hit, saves, assault).",
            "X", "elite_reroll"),
        _ab("structure-damage", "weapon", "Structure damage", "Dégâts structurels", False,
            "A building hit must save at AP X or lose a structure point.",
            "X", "structure_damage"),
        _ab("armour-breaker", "weapon", "Armour-breaker", "Brise-armure", False,
            "Against a save of 4+ or better, successful standard saves are re-rolled.",
            "", "armour_breaker_save"),
        _ab("ignores-cover", "weapon", "Ignores cover", "Ignore les couverts", False,
            "Ignores to-hit modifiers from cover.", "", "cover_penalty"),
        _ab("elite-aura", "unit", "Elite aura", "Aura d'élite", False,
            "Class 1–2 detachments with a base less than 12 cm away count as elite (use the "
            "army's re-rolls, generate none).", "", "aura_applies"),
        _ab("master-strategist", "unit", "Master strategist", "Maître Stratège", True,
            "Two face-down reserve orders may replace an activated detachment's order "
            "(not a retreat or imposed order)."),
        _ab("leadership", "unit", "Leadership", "Commandement", False,
            "Friendly detachments (not class 5+) with a base within 12 cm get +1 FA.",
            "", "aura_applies"),
        _ab("forward-observer", "unit", "Forward observer", "Observateur Avancé (OA)", True,
            "Directs 3 artillery shots, or 2 and one off-table shot (3+ to happen, 2D6 cm "
            "scatter); directed indirect barrages scatter 1D6 cm instead of 2D6.",
            "", "forward_observer"),
        _ab("character", "unit", "Character", "Personnage", True,
            "A unique individual; may abandon its assigned transport (a loss)."),
        _ab("bound-character", "unit", "Bound character", "Personnage Lié", True,
            "Joins a detachment (at most 2 per detachment), its transport mode and morale.",
            "", "bound_characters"),
        _ab("hq", "unit", "HQ", "QG", True,
            "On a failed save, may sacrifice a base of the same blocking class within 6 cm "
            "instead (not in assault).", "", "hq_sacrifice"),
        _ab("jump-packs", "unit", "Jump packs", "Réacteurs Dorsaux", True,
            "Ignores terrain and most zones of control while moving; cannot use them to "
            "leave an assault."),
        _ab("reduces-cover", "weapon", "Reduces cover", "Réduit les couverts", False,
            "Reduces to-hit penalties from cover by 1.", "", "cover_penalty"),
        _ab("psychic-save", "unit", "Psychic save", "Sauvegarde Psychique", True,
            "An X+ save against ethereal psychic attacks only.", "X", "psychic_save"),
        _ab("turret", "weapon", "Turret", "Tourelle", True, "360° fire arc whatever the class."),
        _ab("transport", "unit", "Transport", "Transport", True,
            "Carries X infantry bases; 5 cm to embark and to disembark; walkers count 2 and "
            "one character rides free in capacity 6+.", "X", "transport_load"),
        _ab("command-unit", "unit", "Command unit", "Unité de commandement", True,
            "After moving, a Charge order becomes Advance and an Advance order a revealed "
            "Supporting fire."),
        _ab("flyer", "unit", "Flyer", "Volant", True,
            "Altitude ground / low (20 cm) / high (40 cm, +25 cm range); −1 to be hit except "
            "by AA; 180° front arc; moves at least half its move, in a straight line.",
            "", "flyer_shot"),
    )
}  # fmt: skip


def get_ability(ability_id: object) -> Ability:
    """The ability of id ``ability_id``; :class:`UnknownAbility` names it otherwise."""
    from .errors import UnknownAbility

    if not isinstance(ability_id, str) or ability_id not in ABILITIES:
        raise UnknownAbility(f"ability: {ability_id!r} is not one of {', '.join(ABILITIES)}")
    return ABILITIES[ability_id]
