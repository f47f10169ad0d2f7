"""Every reading D-n of the rules, for the campaign's "rules in force" page.

A reading is how the project reads a place where seed 000 (the
French core rule book) is silent or contradicts itself. Each has an id, what it means, the
seed's own words (quoted in French, as printed) and, for the readings a league may switch
(§16), the ``battles.rules.options.RuleOptions`` fields that implement it. The engine
never imports this module (it holds UI text); ``rules_in_force`` pairs it with a
campaign's options.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from battles.rules.errors import RulesError
from battles.rules.options import DEFAULT_OPTIONS, OPTION_HELP, RuleOptions

__all__ = ["READINGS", "Reading", "rules_in_force"]


@dataclass(frozen=True)
class Reading:
    """One D-n: ``id`` ("D-12"), rules ``section`` ("§8"), ``meaning`` (translated),
    ``seed`` (the seed's words, French; empty when the seed says nothing on it)."""

    id: str
    section: str
    meaning: Promise | str
    seed: str = ""

    @property
    def options(self) -> tuple[str, ...]:
        """The option names implementing this reading (empty: fixed in the engine)."""
        return tuple(name for name, d in OPTION_HELP.items() if d == self.id)


READINGS: tuple[Reading, ...] = (
    Reading(
        "D-1",
        "§2",
        _("Tied initiative rolls are rolled again."),
        "Chaque joueur lance 2d6. Le score le plus haut gagne l’initiative",
    ),
    Reading(
        "D-2",
        "§2",
        _("Drones attacking a wreck roll and are logged, but change nothing."),
        "sauf pour les Drones qui attaquent les débris",
    ),
    Reading(
        "D-3",
        "§3",
        _(
            "Turning and speed change share the thrust (arcs + speed change ≤ thrust), so "
            "the seed's thrust-4 example of 3 arcs and +1 is legal. Option: also at most "
            "half the thrust in arcs (at least 1)."
        ),
        "Avec une propulsion de 4, un Vaisseau peut se réorienter de 2 arcs bâbords et "
        "augmenter sa vitesse de 2, ou de 3 arcs et augmenter sa vitesse de 1 / Un Vaisseau "
        "peut se réorienter d’autant d’arcs que sa valeur de Propulsion/2",
    ),
    Reading(
        "D-4",
        "§3",
        _("A stationary ship's roll turns it one arc, for one thrust point."),
        "cette manœuvre s’appelle un Roulement et consomme 1 point de Propulsion",
    ),
    Reading("D-5", "§4", _("Crew factors: one per 20 mass, rounded up.")),
    Reading("D-6", "§4", _("A hull given only as a box count is split into 4 rows, larger first.")),
    Reading(
        "D-7",
        "§4",
        _("A core explosion deals semi-piercing damage."),
        "infligeant la Masse du Vaisseau en dégâts",
    ),
    Reading(
        "D-8",
        "§4",
        _("Command systems are never a lance's pick but are checked in threshold checks."),
        "Les systèmes de commande ne peuvent être ciblés par une Lance",
    ),
    Reading("D-9", "§4", _("Crew left follows the hull left, rounded up.")),
    Reading(
        "D-10",
        "§6",
        _("The sixth arc, which the seed calls ventral, is the aft arc."),
        "l’arc bâbord-arrière, l’arc bâbord-avant et l’arc ventral",
    ),
    Reading(
        "D-11",
        "§7",
        _("A natural 6 re-rolls whatever the screen, and re-rolls chain on further 6s."),
        "un score de 6 inflige 2 Touches et permet une relance du dé",
    ),
    Reading(
        "D-12",
        "§8",
        _(
            "In the phase 9 in which a ship fires a lance it fires nothing but lances; its "
            "defence systems still defend. Option: only the lance's fire control is "
            "exclusive."
        ),
        "Un Contrôle de tir est requis pour la Lance, aucun autre système d’armes ne peut "
        "être employé en même temps.",
    ),
    Reading(
        "D-13",
        "§8",
        _("A plasma torpedo at 0–3 mu hits on 3+, as at 4–6 mu."),
        "4-6mu : 3+/ 7-12mu : 4+/ 13-18mu : 5+/ 19-24mu :6",
    ),
    Reading(
        "D-14",
        "§8",
        _("Rocket packs, the MPC (ship and gunboat) and EMP dice never re-roll a 6."),
        "Sa portée maximum est de 12mu (1-3 : Aucun effet/ 4-5 : 1 touche/ 6 : 2 touches)",
    ),
    Reading(
        "D-15",
        "§8",
        _("A kinetic re-roll adds the class if it beats it, twice the class otherwise."),
        "Un 6 naturel donne une relance",
    ),
    Reading(
        "D-16",
        "§8",
        _("An MPC rolls one die."),
        "Sa portée maximum est de 12mu (1-3 : Aucun effet/ 4-5 : 1 touche/ 6 : 2 touches)",
    ),
    Reading(
        "D-17",
        "§8",
        _("Heavy fighters lose half the area die, rounded up."),
        "1d6/2 pour une escadrille de Chasseurs lourds",
    ),
    Reading("D-18", "§9", _("Each EMP hit is one system check at 4+.")),
    Reading(
        "D-19",
        "§9",
        _("Fighters attack ships on the beam table, penetrating; screens and re-rolls apply."),
    ),
    Reading(
        "D-20",
        "§9",
        _("Interceptors and area weapons inflict one loss per success on gunboats."),
        "Les Intercepteurs infligent seulement 1DF",
    ),
    Reading(
        "D-21",
        "§11",
        _("Semi-piercing damage: half rounded up to armour, the rest to hull."),
        "La moitié de leurs dégâts (arrondi au supérieur) se heurtent au Blindage",
    ),
    Reading("D-22", "§12", _("Crew on damage control cannot repel boarders the same turn.")),
    Reading("D-23", "§13", _("Each boarding squad not repelled destroys one hull box.")),
    Reading("D-24", "§15b", _("Designs are priced with the Full Thrust Fleet Book design system.")),
    Reading("D-25", "§15b", _("Armour may come in layers, the outer layer lost first.")),
    Reading(
        "D-26",
        "§9",
        _(
            "A gunboat fires at light units out to its profile's range (12 mu for the PD "
            "platform). Option: 6 mu against light units."
        ),
        "Chasseurs, Canonnières vs Chasseurs, Canonnières / Portée de tir = 6mu",
    ),
    Reading(
        "D-27",
        "§9",
        _("An EMP gunboat rolls 1d6 a craft at one target. Option: 1d6 a projector, two a craft."),
        "Dégâts : 1d6 / deux Projecteurs EMP classe 1 … pouvant cibler chacun une unité différente",
    ),
    Reading(
        "D-28",
        "§8",
        _("A rocket pack at 12 mu rolls 2d6; its third band is 13–18 mu."),
        "0-6mu : 3d6/ 7-12mu : 2d6/ 12-18mu : 1d6",
    ),
    Reading(
        "D-29",
        "§6",
        _("A ship launches at most as many units a turn as it has working fire controls."),
        "Un contrôle de tir est également mobilisé pour le lancement de chaque Missile, "
        "escadrille de Chasseurs ou de Canonnières, mais sont libérés après lancement de ces "
        "unités.",
    ),
    Reading(
        "D-30",
        "§9",
        _(
            "In dogfights each craft rolls its profile's dice (a heavy fighter 2d6). Option: "
            "one die a craft."
        ),
        "Dégâts : 2d6 / Chasseurs vs Chasseurs",
    ),
    Reading(
        "D-31",
        "§9",
        _(
            "A carrier recovers half its launch tubes a turn, rounded up (one tube: 1). "
            "Option: rounded down."
        ),
        "il peut en récupérer la moitié à chaque tour",
    ),
    Reading(
        "D-32",
        "§6",
        _(
            "A target seen only as a blip may be fired at, at full effect, as far as the "
            "weapon reaches (the rule book fires a needle nodule at 72 mu). Option: only "
            "targets within the firer's sensor range."
        ),
        "Les contrôles de tir possèdent une portée effective de détection de 54mu. / il est "
        "donc tout à fait possible de tirer à une distance de 72mu",
    ),
    Reading(
        "D-33",
        "§6",
        _(
            "ECM acts on sensors only. Option: fire reaches no further than the fire "
            "control's 54 mu, shortened by 6 mu an ECM level of the target (never below 6 "
            "mu)."
        ),
        "réduire l’efficacité des senseurs ennemis de 6mu par niveau de CME",
    ),
    Reading(
        "D-34",
        "§8",
        _(
            "Pulser modes and needle-nodule power points are written with the phase-1 "
            "orders. Option: chosen at fire, at the measured range."
        ),
        "à chaque tour de jeu, le joueur doit choisir, pour chacun de ses Pulseurs, la "
        "portée effective / il faut indiquer la répartition de puissance entre les "
        "différents postes",
    ),
)


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    return str(value)


def rules_in_force(*, rule_options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every reading with the campaign's settings, for the "rules in force" page.

    Returns ``{"readings": [...], "error": str | None}``; each reading is a dict with
    ``id``, ``section``, ``meaning``, ``seed`` and ``settings``: one dict per option
    (``name``, ``value``, ``default`` as shown text, ``changed``). Options the campaign
    stores but the engine refuses (``RulesError``) are reported in ``error`` and the
    defaults shown, as a battle resolution would refuse them.
    """
    error = None
    try:
        options = RuleOptions.from_dict(dict(rule_options or {}))
    except (RulesError, TypeError, ValueError) as exc:
        options, error = DEFAULT_OPTIONS, str(exc)
    current, default = options.to_dict(), DEFAULT_OPTIONS.to_dict()
    rows = []
    for reading in READINGS:
        settings = [
            {
                "name": name,
                "value": _shown(current[name]),
                "default": _shown(default[name]),
                "changed": current[name] != default[name],
            }
            for name in reading.options
        ]
        rows.append(
            {
                "id": reading.id,
                "section": reading.section,
                "meaning": reading.meaning,
                "seed": reading.seed,
                "settings": settings,
                "changed": any(s["changed"] for s in settings),
            }
        )
    return {"readings": rows, "error": error}
