"""File names of the baked site: safe, lower-case and unique.

Slugs are not validated on every write path and a ``SlugField`` keeps case, so ``Hood``
and ``HOOD`` would be one file on a case-insensitive disk (macOS, Windows). Every object
gets a name made of ``[a-z0-9-]`` only, Latin letters with accents or of their own
transliterated (``Ørsted`` → ``orsted``, not ``-rsted``; an ASCII name is unchanged);
when two fold to the same name, the one with the higher primary key gets ``-<pk>``
appended. Names are assigned in primary-key order, so an
object keeps its file name from one build to the next.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

_UNSAFE = re.compile(r"[^a-z0-9-]+")
# Latin letters that Unicode does not decompose into a base letter and an accent (the
# rest, é, å, ü…, lose their accent by NFKD). No transliteration library is installed;
# these are the ones a league's Nordic, German, Polish or Icelandic names hold.
_OWN_LETTERS = str.maketrans(
    {
        "ø": "o",
        "Ø": "O",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "ß": "ss",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
        "ð": "d",
        "Ð": "D",
        "þ": "th",
        "Þ": "Th",
        "ı": "i",
        "ħ": "h",
        "Ħ": "H",
    }
)


def ascii_fold(text: str) -> str:
    """``text`` with its Latin letters as ASCII (``Ørsted Æbeltoft`` → ``Orsted
    Aebeltoft``, ``é`` → ``e``); characters of other scripts are dropped."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_OWN_LETTERS))
    return decomposed.encode("ascii", "ignore").decode("ascii")


def safe_name(slug: str, pk: int) -> str:
    """``slug`` transliterated (:func:`ascii_fold`) and folded to ``[a-z0-9-]``
    (``item-<pk>`` when nothing is left)."""
    name = _UNSAFE.sub("-", ascii_fold(slug or "").casefold()).strip("-")
    return name[:120] or f"item-{pk}"


def assign_names(objects: Iterable[Any], *, taken: set[str] | None = None) -> dict[int, str]:
    """``{pk: unique file name}`` for ``objects`` (with ``pk`` and ``slug``), in pk order.
    ``taken`` are names already used in the same folder."""
    used = set(taken or ())
    names: dict[int, str] = {}
    for obj in sorted(objects, key=lambda o: o.pk):
        name = safe_name(obj.slug, obj.pk)
        if name in used:
            name = f"{name}-{obj.pk}"
        used.add(name)
        names[obj.pk] = name
    return names
