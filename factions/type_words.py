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


#: The seed's gunboat variants (``LightUnitGroup.unit_type`` of the sample's Norway
#: squadrons, rules §9) in the reader's language: the build page's own labels.
SEED_GUNBOAT_VARIANTS = {
    "heavy transport": _("gunboats, heavy transports"),
    "emp launcher": _("gunboats, EMP launchers"),
}


def light_unit_label(kind: str, kind_label: str, unit_type: str) -> str:
    """A light-unit group's kind and type as reports name it: "fighters (Nith)". The seed's
    English words are not printed beside a French kind: a type that only repeats the kind
    ("long-range fighter") is left out, a gunboat variant is the build page's label
    ("canonnières, transports lourds"). Any other type a league typed stays as written."""
    word = (unit_type or "").strip()
    variant = SEED_GUNBOAT_VARIANTS.get(word.lower()) if kind == "gunboat" else None
    if variant is not None:
        return str(variant)
    if not word or word.lower().replace(" ", "-") == kind:
        return kind_label
    return f"{kind_label} ({word})"
