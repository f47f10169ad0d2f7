"""Texts the server stores in English, shown in the reader's language (campaign.core.stored_text):
every known shape in French and in English, exact; anything else unchanged."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from campaign.core.stored_text import stored_text

# (stored English text, French shown, English shown)
SHAPES = [
    # Ledger reasons.
    ("income of turn 3", "revenus du tour 3", "income of turn 3"),
    ("opening treasury (demo)", "trésor de départ (démo)", "opening treasury (demo)"),
    (
        "repair of Silith #4 at Petra IV",
        "réparation de Silith #4 à Petra IV",
        "repair of Silith #4 at Petra IV",
    ),
    ("repair of Silith #4 cancelled", "réparation de Silith #4 annulée", None),
    (
        "construction of Mjølner at Trøndelag",
        "construction de Mjølner à Trøndelag",
        "construction of Mjølner at Trøndelag",
    ),
    (
        "construction of Mjølner at Trøndelag cancelled",
        "construction de Mjølner à Trøndelag annulée",
        None,
    ),
    (
        "battle Raid on Arendal undone: repair of Silith #4 cancelled",
        "bataille Raid on Arendal annulée\u202f: réparation de Silith #4 annulée",
        None,
    ),
    # History change reasons and ETA notes.
    ("turn 2: repaired at Petra IV", "tour 2\u202f: réparé à Petra IV", None),
    ("turn 2: built at Trøndelag", "tour 2\u202f: construit à Trøndelag", None),
    ("turn 4: moved to Arendal", "tour 4\u202f: déplacée vers Arendal", None),
    (
        "turn 4: lost with carrier Kajna #1",
        "tour 4\u202f: perdus avec le porte-nefs Kajna #1",
        None,
    ),
    ("turn 4 reopened", "tour 4 rouvert", None),
    (
        "was turn 5: repair of Silith #4 cancelled",
        "était le tour 5\u202f: réparation de Silith #4 annulée",
        None,
    ),
    ("was turn 5: turn 3 closed", "était le tour 5\u202f: tour 3 clos", None),
    ("Built at Trøndelag, turn 2.", "Construit à Trøndelag, tour 2.", None),
    # Engine outcomes.
    (
        "Qatzrin victory: the other side has no ship left in action, after 8 turns. "
        "Resolved by the rules engine (seed 20261130).",
        "Victoire de Qatzrin\u202f: l’autre camp n’a plus aucun vaisseau en action, après 8 tours. "
        "Résolue par le moteur de règles (graine 20261130).",
        None,
    ),
    (
        "Phalon victory: the other side's last ships withdrew, after 1 turn. "
        "Played turn by turn from both sides' orders (seed 5).",
        "Victoire de Phalon\u202f: les derniers vaisseaux de l’autre camp se sont retirés, après "
        "1 tour. Livrée tour par tour sur les ordres des deux camps (graine 5).",
        None,
    ),
    (
        "No winner: both sides lost every ship, after 3 turns. "
        "Resolved by the rules engine (seed 9).",
        "Pas de vainqueur\u202f: les deux camps ont perdu tous leurs vaisseaux, après 3 tours. "
        "Résolue par le moteur de règles (graine 9).",
        None,
    ),
    (
        "Draw: equal surviving strength at the turn limit, after 20 turns. "
        "Resolved by the rules engine (seed 9).",
        "Match nul\u202f: forces restantes égales à la limite de tours, après 20 tours. "
        "Résolue par le moteur de règles (graine 9).",
        None,
    ),
    (
        "Phalon victory: more surviving strength (mass × hull left), the battle ended by the "
        "organiser after turn 3. Played turn by turn from both sides' orders (seed 9).",
        "Victoire de Phalon\u202f: plus de force restante (masse × coque restante), bataille "
        "arrêtée par l’organisateur après le tour 3. Livrée tour par tour sur les ordres des "
        "deux camps (graine 9).",
        None,
    ),
    (
        "Draw: equal surviving strength, the battle ended by the organiser before its first "
        "turn. Played turn by turn from both sides' orders (seed 1).",
        "Match nul\u202f: forces restantes égales, bataille arrêtée par l’organisateur avant son "
        "premier tour. Livrée tour par tour sur les ordres des deux camps (graine 1).",
        None,
    ),
    # Participants' notes written by the engine.
    (
        "left derelict: crew lost to life support failure (§4); "
        "left dead in space: core shut down (§4)",
        "laissé à la dérive\u202f: équipage perdu, support vital hors service (§4); "
        "laissé inerte dans l’espace\u202f: réacteur arrêté (§4)",
        None,
    ),
    # Battle timeline summaries.
    (
        "Qatzrin: 3 ship(s), 1 group(s) / Phalon: 1 ship(s), 0 group(s)",
        "Qatzrin\u202f: 3 vaisseaux, 1 groupe / Phalon\u202f: 1 vaisseau, 0 groupe",
        "Qatzrin: 3 ships, 1 group / Phalon: 1 ship, 0 groups",
    ),
    (
        "entry for Phalon: 2 unit(s)",
        "saisie pour Phalon\u202f: 2 unités",
        "entry for Phalon: 2 units",
    ),
    (
        "entry for every side: 1 unit(s)",
        "saisie pour tous les camps\u202f: 1 unité",
        "entry for every side: 1 unit",
    ),
    ("entry 12 confirmed", "saisie 12 confirmée", None),
    ("entry 12 rejected", "saisie 12 refusée", None),
    ("recorded from the table", "saisie depuis la table", None),
    ("first dice seed drawn", "première graine des dés tirée", None),
    (
        "reopened: every ship and light unit as before the battle",
        "rouverte\u202f: chaque vaisseau et unité légère comme avant la bataille",
        None,
    ),
    (
        "turn-by-turn play started (seed 77, at most 6 turns)",
        "partie tour par tour commencée (graine 77, 6 tours au plus)",
        None,
    ),
    ("phalon: orders for turn 2 submitted", "phalon\u202f: ordres du tour 2 envoyés", None),
    ("turn 2 played", "tour 2 joué", None),
    (
        "turn 2 played (auto-resolve tactics for phalon, qatzrin)",
        "tour 2 joué (tactique de résolution automatique pour phalon, qatzrin)",
        None,
    ),
    (
        "turn-by-turn play ended after 1 turn(s) (destruction)",
        "partie tour par tour terminée après 1 tour (destruction)",
        "turn-by-turn play ended after 1 turn (destruction)",
    ),
    (
        "turn-by-turn play ended after 4 turn(s) (ended)",
        "partie tour par tour terminée après 4 tours (arrêtée par l’organisateur)",
        "turn-by-turn play ended after 4 turns (ended by the organiser)",
    ),
]


@pytest.mark.parametrize(("stored", "french", "english"), SHAPES)
def test_each_stored_shape_reads_in_french_and_in_english(stored, french, english):
    with translation.override("fr"):
        assert stored_text(stored) == french
    with translation.override("en"):
        # English shows the stored text, with plurals made right where it had "(s)".
        assert stored_text(stored) == (english or stored)


@pytest.mark.parametrize(
    "text",
    [
        "chest",  # an organiser's own reason
        "Phalon victory. The Ganesha force loses its battlecruiser.",  # a chronicler's outcome
        "Phalon victory: they fled, after 2 turns. Resolved by the rules engine (seed 1).",
        "income of turn three",
        "turn 3: sold at Petra IV",  # a shape no code writes
        "entry for Phalon: 2 unit(s) / and something else",
        "",
    ],
)
def test_an_unknown_or_legacy_text_is_shown_unchanged(text):
    with translation.override("fr"):
        assert stored_text(text) == text


def test_none_reads_as_empty():
    assert stored_text(None) == ""


def test_the_filter_escapes_what_it_translates():
    payload = '<img src=x onerror="alert(1)">'
    template = Template("{% load league %}{{ text|stored_text }}")
    with translation.override("fr"):
        html = template.render(Context({"text": f"repair of {payload} at Petra IV"}))
    assert html == ("réparation de &lt;img src=x onerror=&quot;alert(1)&quot;&gt; à Petra IV")
    assert "<img" not in html
