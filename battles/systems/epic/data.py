"""Epic-scale special abilities as data, in the seed's order.

Source: seed 004 (a glossary of "Capacité Spéciale" entries);
the other-systems restatement §D. Several entries lost their name in the seed; they are named by
their effect (O-4) and marked ``named_in_seed=False``. Three entries lost their text too and
are left out. ``resolver`` names the function of :mod:`.resolve` that applies the ability,
"" when it changes no number (orders, characters).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from battles.systems.epic.errors import UnknownAbility

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
    summary_fr: str = ""  # the summary in French (pages in French show it, ``SUMMARIES_FR``)


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


#: The summaries in French, for the rules page read in French (as ``name_fr``); written
#: from the same seed entries.
SUMMARIES_FR = {
    "indirect-fire": "Peut tirer en tir indirect (règles de base p. 37).",
    "energy-shields": (
        "Un tir de PA 1 ou plus détruit un bouclier au lieu de blesser le socle ; les tirs de "
        "PA 0 (ou moins) n’ont aucun effet tant qu’un bouclier tient ; chaque bouclier perdu "
        "revient sur 4+ en phase finale ; sauvegarde psychique à 4+ tant qu’un bouclier tient."
    ),
    "camouflage": (
        "Dans un terrain donnant un malus pour toucher, invisible au-delà de 25 cm ; après "
        "qu’il a tiré, un tireur au-delà de 25 cm doit faire 4+ pour le voir ; perdu en assaut."
    ),
    "charismatic": (
        "Les détachements amis ayant un socle à 12 cm ou moins ont +1 aux tests de moral."
    ),
    "close-defence": (
        "X tirs à 7+ (interception, PA 0) ou 6+ (contre-charge, PA 0), 15 cm, 360°, "
        "inutiles contre la classe 3 ou plus."
    ),
    "elite": "Relances d’élite de l’armée : un dé par jet (toucher, sauvegardes, assaut).",
    "structure-damage": (
        "Un bâtiment touché doit réussir une sauvegarde à PA X ou perdre un point de structure."
    ),
    "armour-breaker": (
        "Contre une sauvegarde de 4+ ou mieux, les sauvegardes normales réussies sont relancées."
    ),
    "ignores-cover": "Ignore les modificateurs pour toucher dus aux couverts.",
    "elite-aura": (
        "Les détachements de classe 1–2 ayant un socle à moins de 12 cm comptent comme élite "
        "(ils utilisent les relances de l’armée, sans en générer)."
    ),
    "master-strategist": (
        "Deux ordres de réserve face cachée peuvent remplacer l’ordre d’un détachement activé "
        "(pas une retraite ni un ordre imposé)."
    ),
    "leadership": (
        "Les détachements amis (pas de classe 5+) ayant un socle à 12 cm ou moins ont +1 FA."
    ),
    "forward-observer": (
        "Dirige 3 tirs d’artillerie, ou 2 et un tir hors table (sur 3+, dispersion 2D6 cm) ; "
        "les barrages indirects dirigés dévient de 1D6 cm au lieu de 2D6."
    ),
    "character": "Un individu unique ; peut abandonner son transport assigné (une perte).",
    "bound-character": (
        "Rejoint un détachement (2 au plus par détachement), son mode de transport et son moral."
    ),
    "hq": (
        "Sur une sauvegarde ratée, peut sacrifier à la place un socle de même classe de "
        "blocage à 6 cm ou moins (pas en assaut)."
    ),
    "jump-packs": (
        "Ignore le terrain et la plupart des zones de contrôle en mouvement ; ne peut pas "
        "s’en servir pour quitter un assaut."
    ),
    "reduces-cover": "Réduit de 1 les malus pour toucher dus aux couverts.",
    "psychic-save": "Une sauvegarde à X+ contre les seules attaques psychiques éthérées.",
    "turret": "Arc de tir de 360° quelle que soit la classe.",
    "transport": (
        "Transporte X socles d’infanterie ; 5 cm pour embarquer et débarquer ; les marcheurs "
        "comptent 2 et un personnage voyage gratuitement dans une capacité de 6+."
    ),
    "command-unit": (
        "Après son mouvement, un ordre Charge devient Avance et un ordre Avance un Tir de "
        "soutien révélé."
    ),
    "flyer": (
        "Altitude sol / basse (20 cm) / haute (40 cm, +25 cm de portée) ; −1 pour être touché "
        "sauf par l’AA ; arc avant de 180° ; se déplace d’au moins la moitié de son mouvement, "
        "en ligne droite."
    ),
}
ABILITIES = {key: replace(a, summary_fr=SUMMARIES_FR[key]) for key, a in ABILITIES.items()}


def get_ability(ability_id: object) -> Ability:
    """The ability of id ``ability_id``; :class:`UnknownAbility` names it otherwise."""

    if not isinstance(ability_id, str) or ability_id not in ABILITIES:
        raise UnknownAbility(f"ability: {ability_id!r} is not one of {', '.join(ABILITIES)}")
    return ABILITIES[ability_id]
