"""The sensor-reach rule of the campaign map: which systems and links a faction watches,
so which enemy fleets it sees (pure: ids in, ids out; no database).

Rules §5 gives a ship's sensors 24 mu (advanced sensors 36 mu) on the battle table and
the seed says nothing of sensors between systems, so the map's rule is a project reading
(the *campaign sensor reading*, stated in the README's *Fog of war on the map*):

1. a faction **is present** in a system where it holds a territory or has a fleet with
   at least one ship afloat (neither destroyed nor captured); it watches those systems;
2. from a system where it holds a **station** (``Territory.Kind.STATION``: a sensor
   platform that never moves) or has a fleet with a ship afloat of a class with
   **advanced sensors** (design ``"sensors": "advanced"``, rules §5: half as far again as
   standard ones), it also watches every system **one link away**;
3. it watches every link with an end where it is present (the lanes out of its systems)
   and every link one of its own fleets is on (fleets that cross meet there);
4. it sees every fleet in a system or on a link it watches.

The rule is evaluated per turn on the positions of that turn (``campaign.fog.knowledge``);
ECM and stealth (rules §5: −6 mu a level) are battle-table matters and do not shorten
it. What a faction *sees* of a fleet in reach (identified or a contact) is decided by
``campaign.fog.knowledge``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Presence:
    """What one faction has on the map at one moment (ids of systems and links).

    ``systems``: where it is present (rule 1); ``far_systems``: those of them with a
    station or an advanced-sensor ship (rule 2; a subset of ``systems``); ``links``:
    links its own fleets are on (rule 3)."""

    systems: frozenset[int] = field(default_factory=frozenset)
    far_systems: frozenset[int] = field(default_factory=frozenset)
    links: frozenset[int] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Reach:
    """The systems and links a faction watches (ids)."""

    systems: frozenset[int]
    links: frozenset[int]

    def covers(self, *, system: int | None = None, link: int | None = None) -> bool:
        """True if a fleet in ``system`` or on ``link`` is in reach."""
        if system is not None:
            return system in self.systems
        return link is not None and link in self.links


def sensor_reach(presence: Presence, links: Mapping[int, tuple[int, int]]) -> Reach:
    """The :class:`Reach` of a faction with ``presence`` on a map whose ``links`` are
    ``{link id: (system id, system id)}`` (rules 1–3 of the module docstring)."""
    systems = set(presence.systems)
    watched_links = set(presence.links)
    for link_id, (a, b) in links.items():
        if a in presence.far_systems:
            systems.add(b)
        if b in presence.far_systems:
            systems.add(a)
        if a in presence.systems or b in presence.systems:
            watched_links.add(link_id)
    return Reach(frozenset(systems), frozenset(watched_links))


def presence_of(
    *,
    territories: Iterable[tuple[int, bool]],
    fleets: Iterable[tuple[int | None, int | None, bool]],
) -> Presence:
    """A faction's :class:`Presence` from its placed ``territories`` — ``(system id,
    is a station)`` — and its fleets with a ship afloat — ``(system id or None, link id or
    None, has an advanced-sensor ship afloat)``."""
    systems: set[int] = set()
    far: set[int] = set()
    on_links: set[int] = set()
    for system_id, station in territories:
        systems.add(system_id)
        if station:
            far.add(system_id)
    for system_id, link_id, advanced in fleets:
        if system_id is not None:
            systems.add(system_id)
            if advanced:
                far.add(system_id)
        elif link_id is not None:
            on_links.add(link_id)
    return Presence(frozenset(systems), frozenset(far), frozenset(on_links))
