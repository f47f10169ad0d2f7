"""The seed's ship type words (``ShipClass.type_word``, French in the catalogues: seed
000, the sample fleets) in the reader's language. The msgids are the English Full Thrust
terms; the French catalogue gives the seed's own words back. A type word a league typed
itself, not in this table, is shown as written (people's own texts stay as written)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

SEED_TYPE_WORDS = {
    "corvette": _("corvette"),
    "frégate": _("frigate"),
    "destroyer": _("destroyer"),
    "croiseur léger": _("light cruiser"),
    "croiseur lourd": _("heavy cruiser"),
    "croiseur de bataille": _("battlecruiser"),
    "vaisseau de ligne": _("ship of the line"),
    "porte-nef léger": _("light carrier"),
    "porte-nef lourd": _("heavy carrier"),
    "guerrier": _("warrior"),
    "grand guerrier": _("great warrior"),
    "protecteur": _("protector"),
}


def type_label(type_word: str) -> str:
    """``type_word`` in the active language when it is one of the seed's, else as written."""
    label = SEED_TYPE_WORDS.get((type_word or "").strip().lower())
    return str(label) if label is not None else type_word
