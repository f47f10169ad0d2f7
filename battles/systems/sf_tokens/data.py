"""Starfinder GM action tokens as data: the advanced actions, the removed actions, the
simplified critical states.

Source: seed 001 ("Les jetons d'action", "Les actions avancées",
"Actions supprimées", "Les dégâts critiques"), restated in §A of the other-systems restatement.
Texts are kept in English and in the seed's French (``text_fr``): the product shows the one
of the reader's language. Pure data, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "ACTIONS",
    "BASIC_CHECKS",
    "CRITICAL_STATES",
    "POSTS",
    "POST_SYSTEM",
    "REMOVED_ACTIONS",
    "SYSTEMS",
    "AdvancedAction",
    "BasicCheck",
]

#: Crew posts that can act (seed: "Pilote", "Canonnier", "Officier scientifique",
#: "Ingénieur"). Captain, magic officer and chief mate are removed for GM ships.
POSTS: tuple[str, ...] = ("pilot", "gunner", "science", "engineer")

#: Systems a critical can reach (seed, "Ciblage système": réacteur, propulseurs, systèmes de
#: survie, détecteurs, armement). Weapons are per arc: "Affecte les armes d'un arc donné +
#: tourelles".
ARCS: tuple[str, ...] = ("forward", "aft", "port", "starboard")
SYSTEMS: tuple[str, ...] = (
    "life-support",
    "sensors",
    *(f"weapons-{arc}" for arc in ARCS),
    "engines",
    "power-core",
)

#: The system each post works through (Starfinder's usual pairing; reading H-1 of
#: ``battles/systems/readings.md``: the seed says "le système touché" without listing the
#: pairs). Gunners use the weapons of the arc they fire.
POST_SYSTEM: dict[str, str] = {
    "pilot": "engines",
    "gunner": "weapons",
    "science": "sensors",
    "engineer": "power-core",
}

#: Critical states, mildest first (seed: "Dysfonctionnement", "Défaillant", "Détruit").
#: The other-systems restatement (§A) calls the second one "glitching"; the seed has three
#: states and only the second and third have effects.
CRITICAL_STATES: tuple[str, ...] = ("nominal", "glitching", "malfunctioning", "wrecked")


@dataclass(frozen=True, slots=True)
class BasicCheck:
    """A basic action's d20 check (seed, "Les actions basiques"): the post that rolls it."""

    id: str
    post: str
    text: str
    text_fr: str


BASIC_CHECKS: tuple[BasicCheck, ...] = (
    BasicCheck(
        "piloting",
        "pilot",
        "Piloting check for initiative and the propulsion action",
        "Test de Pilotage pour l'initiative et l'action Propulsion",
    ),
    BasicCheck("gunnery", "gunner", "Gunnery check for each shot", "Test de Canonnage par tir"),
    BasicCheck(
        "special-gunnery",
        "science",
        "Special gunnery check to activate ECM modules",
        "Test de Canonnage spécial pour activer les modules CME",
    ),
)


@dataclass(frozen=True, slots=True)
class AdvancedAction:
    """An advanced action: ``post`` must be crewed, the ship's tier at least ``min_tier``;
    it costs one token and succeeds automatically (seed, "Les actions avancées")."""

    id: str
    post: str
    min_tier: int
    name: str
    name_fr: str
    effect: str
    effect_fr: str
    #: -4 or -2 on each check it makes, 0 when none (fire at will, quick jam, broadside).
    check_penalty: int = 0


def _a(*args: object, **kw: object) -> AdvancedAction:
    return AdvancedAction(*args, **kw)  # type: ignore[arg-type]


ACTIONS: dict[str, AdvancedAction] = {
    a.id: a
    for a in (
        _a(
            "maintain-integrity",
            "engineer",
            1,
            "Maintain integrity",
            "Maintenir l'intégrité",
            "Ignore a malfunctioning system for this round (its advanced actions cost one token "
            "more), or a wrecked one by burning a token for good: it works for the rest of the "
            "round and is malfunctioning again next round.",
            "Ignore un état défaillant pendant un tour ou un état détruit en brûlant "
            "définitivement un jeton.",
        ),
        _a(
            "divert",
            "engineer",
            1,
            "Transfer (shields only)",
            "Transfert (boucliers uniquement)",
            "Regain shield points equal to 5 % of the power core's PCU, spread freely over "
            "the quadrants.",
            "Régénère des points de boucliers équivalents à 5 % de l'UE du réacteur, "
            "répartis librement parmi les quadrants.",
        ),
        _a(
            "manoeuvre",
            "pilot",
            1,
            "Manoeuvre",
            "Manœuvre",
            "Move up to speed in hexes; the distance between turns is 1 less (minimum 0).",
            "Déplace le vaisseau d'un maximum d'hexagones égal à sa vitesse. La distance "
            "entre deux virages est réduite de 1 (minimum 0).",
        ),
        _a(
            "stunt",
            "pilot",
            1,
            "Stunt",
            "Figure acrobatique",
            "Any stunt.",
            "N'importe quelle manœuvre.",
        ),
        _a(
            "target-system",
            "science",
            1,
            "Target system",
            "Ciblage système",
            "Choose a system: the next successful attack crits on a natural 19 or 20 and the "
            "crit hits that system. One system per target ship.",
            "La prochaine attaque réussie infligera un coup critique sur un 19 ou 20 naturel ; "
            "le système visé est affecté.",
        ),
        _a(
            "rebalance",
            "science",
            1,
            "Rebalance",
            "Rééquilibrage",
            "Move shield points between arcs, each arc keeping at least 10 % of the current "
            "total; or spread them evenly, the remainder forward.",
            "Redirige les points de boucliers d'un arc vers un autre. Chaque arc doit avoir au "
            "moins 10 % du total actuel.",
        ),
        _a(
            "quick-jam",
            "science",
            1,
            "Quick jam",
            "Brouillage rapide",
            "Activate 2 ECM modules, each check at -4.",
            "Active 2 modules CME. Chaque test subit un malus de -4.",
            -4,
        ),
        _a(
            "fire-at-will",
            "gunner",
            1,
            "Fire at will",
            "Feu à volonté",
            "Fire 1 or 2 weapons whatever their arc, each attack at -4.",
            "Utilise 1 ou 2 armes quel que soit leur arc de tir. Chaque attaque subit un malus "
            "de -4.",
            -4,
        ),
        _a(
            "deploy-drone",
            "gunner",
            1,
            "Deploy drone",
            "Déployer un drone",
            "Use a deployed weapon in an adjacent hex at the start of the next round.",
            "Utilise une arme Déployée dans un hexagone adjacent au début du round suivant.",
        ),
        _a(
            "lay-mines",
            "gunner",
            1,
            "Lay mines",
            "Poser des mines",
            "Use a mine weapon on each different hex crossed this round (within its limit).",
            "Utilise une arme Mine sur chaque hexagone différent traversé pendant ce round.",
        ),
        _a(
            "full-power",
            "pilot",
            6,
            "Full power",
            "Pleine puissance",
            "Move 1.5 × speed; turns allowed, the distance between turns is 2 more.",
            "Déplace le vaisseau à 1,5 × sa vitesse. Virages possibles, mais la distance entre "
            "virages augmente de 2.",
        ),
        _a(
            "deceptive-electronics",
            "science",
            6,
            "Deceptive electronics",
            "Systèmes électroniques trompeurs",
            "Activate 1 ECM module; on a success, add the effects of target system.",
            "Active 1 module CME. Ajoute les effets de Ciblage système en cas de réussite.",
        ),
        _a(
            "broadside",
            "gunner",
            6,
            "Broadside",
            "Bordée",
            "Fire every weapon of one arc (turrets included), each may pick a target, all at -2.",
            "Feu avec toutes les armes sur un arc (tourelles comprises), toutes les attaques à -2.",
            -2,
        ),
        _a(
            "audacious-gambit",
            "pilot",
            12,
            "Audacious gambit",
            "Tactique audacieuse",
            "Move up to speed with turns 2 hexes closer (minimum 0), through enemy hexes "
            "without attacks of opportunity, free facing at the end; on failure a normal move.",
            "Déplacement jusqu'à la vitesse normale, distance entre virages réduite de 2, sans "
            "attaques d'opportunité ; orientation libre à la fin.",
        ),
        _a(
            "amplified-countermeasures",
            "science",
            12,
            "Amplified countermeasures",
            "Amplification des contre-mesures",
            "Enemy gunners roll 2 dice and keep the lower for the rest of the round.",
            "Les canonniers ennemis lancent 2 dés et conservent le plus faible pour le reste "
            "du round.",
        ),
        _a(
            "precise-targeting",
            "gunner",
            12,
            "Precise targeting",
            "Ciblage précis",
            "If the attack hits and that arc's shields were down before it: a random critical, "
            "even if a critical was already due.",
            "Si l'attaque touche et que les boucliers de l'arc étaient épuisés : dégâts "
            "critiques aléatoires sur un système.",
        ),
    )
}

#: Actions GM ships do not use (seed, "Actions supprimées").
REMOVED_ACTIONS: tuple[tuple[str, str], ...] = (
    ("Captain actions (bonuses to basic actions)", "Actions de capitaine"),
    ("Magic officer actions", "Actions d'officier arcaniste"),
    ("Chief mate actions", "Actions de premier maître"),
    ("Overpower", "Suralimentation"),
    ("Transfers giving bonuses to systems", "Transferts pour donner des bonus aux systèmes"),
    ("Quick fix and patch", "Bricolage et Rafistolage rapide"),
)
