"""How a list tells same-named ships apart: the set-up's ship choices, the after-action
report's unit tables (HTML, PDF, site) and its draft name a ship that shares its name with
another ship of the list by its number and squadron.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from factions.models import Ship


def ship_name(ship: Ship) -> str:
    """The name a list shows: the ship's own, else its class's (``Tashkent``)."""
    return ship.name or ship.ship_class.name


def told_apart(ship: Ship) -> str:
    """``ship``'s name with its number and, when it has one, its squadron:
    ``Tashkent #12 (1st squadron)``, ``Tashkent #13``. ``ship`` has ``ship_class`` and
    ``squadron`` loaded (``select_related``) to avoid a query each."""
    name = f"{ship_name(ship)} #{ship.pk}"
    return f"{name} ({ship.squadron.name})" if ship.squadron_id else name


def shared_names(ships: Iterable[Ship]) -> frozenset[str]:
    """The names (:func:`ship_name`) borne by more than one of ``ships``."""
    counts = Counter(ship_name(s) for s in ships)
    return frozenset(name for name, n in counts.items() if n > 1)


def names_told_apart(ships: Iterable[Ship]) -> dict[int, str]:
    """``{ship id: told_apart(ship)}`` for those of ``ships`` whose name another of them
    bears (the others keep their plain name)."""
    ships = list(ships)
    shared = shared_names(ships)
    return {s.pk: told_apart(s) for s in ships if ship_name(s) in shared}
