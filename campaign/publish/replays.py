"""Replays on the baked site: the board of every engine-fought battle, baked
as one JSON file per battle and language, which ``static/js/battle-board.js`` fetches
from the battle's page (no server, no inline script).

The JSON is what an anonymous visitor of the app's replay viewer (``/battles/<id>/replay/``)
may see, built by the same code: ``battles.play.board.board_view`` with the ``public``
viewer of ``battles.access.battle_perspective(None, battle)``, whose hidden units are
those ``battles.visibility.hidden_refs`` finds for the public (neither drawn nor named,
the events touching them left out of the log). Log lines and phase names are in
the page's language, so there is one file per language::

    <lang>/replays/<campaign>/<battle>.json
        {"board": {moments, frames, fire, log, bounds, sides, viewer}, "phases": [12 names]}

A battle has a replay when its log starts with the engine's ``setup`` row (auto-resolved
or fought turn by turn, as the app's battle page decides); a battle recorded from the
table has none and its page says so in one sentence.

Builder hook (``campaign.publish.builder``): :func:`prepare` once after the data is loaded
(sets ``battle.site_replay``, the JSON's path relative to the language folder, or None),
:func:`bake` once per language before the battle pages. A file is keyed by the battle's
version, its hidden ships, its sides' names, the language and this code: an unchanged
battle is not read again (its events are loaded only when its file must be written).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import translation

from battles.models import Battle, Event
from battles.play.board import Viewer, board_view
from battles.play.context import phase_names
from battles.visibility import UnitRow, battle_units, hidden_refs, public_reader

__all__ = ["bake", "prepare", "public_viewer", "replay_json"]

#: Files whose change changes every replay file (with the builder's own sources digest).
_SOURCES = (
    "battles/play/board.py",
    "battles/visibility.py",
    "battles/log/lines.py",
    "battles/log/light.py",
    "battles/log/damage.py",
    "battles/log/rolls.py",
    "campaign/publish/replays.py",
)
#: Battles whose events are loaded by one query (bounded memory on large leagues).
_CHUNK = 200


def _sources_digest() -> str:
    sha = hashlib.sha256()
    for name in _SOURCES:
        sha.update((Path(settings.BASE_DIR) / name).read_bytes())
    return sha.hexdigest()[:16]


def public_viewer(
    battle: Battle, public_fleet_ids: set[int], units: list[UnitRow] | None = None
) -> Viewer:
    """The ``public`` viewer of ``battle``: its units of fleets not in
    ``public_fleet_ids`` (``visible_fleets(None)``) hidden
    (``battles.visibility.hidden_refs``), as ``battles.play.context.battle_viewer(battle,
    None)`` hides them. ``units``: the battle's units as :func:`prepare` read them (else
    one query)."""
    if units is None:
        units = battle_units([battle.pk])[battle.pk]
    return Viewer("public", hidden=hidden_refs(units, public_reader(public_fleet_ids)))


def replay_json(battle: Battle, events: Iterable[Any], viewer: Viewer) -> bytes:
    """The replay file of ``battle`` (see the module docstring) for ``viewer``, in the
    active language. ``events``: its ``Event`` rows (objects or dicts) in order."""
    names = {s.faction.slug: s.faction.name for s in battle.sides.all()}
    payload = {
        "board": board_view(events, viewer, side_names=names),
        "phases": phase_names(),
    }
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def prepare(baker) -> None:
    """Mark the battles with an engine log: ``battle.site_replay`` is their replay file's
    path (relative to a language folder), None for the others; ``baker.replay_units``
    their units as visibility reads them. Two queries."""
    with_log = set(
        Event.objects.filter(battle__in=[b.pk for b in baker.battles], kind="setup").values_list(
            "battle_id", flat=True
        )
    )
    baker.replay_sources = _sources_digest()
    for battle in baker.battles:
        battle.site_replay = None
        if battle.pk in with_log:
            stem = battle.site_path.removeprefix("battles/").removesuffix(".html")
            battle.site_replay = f"replays/{stem}.json"
    baker.replay_units = battle_units(sorted(with_log))


def _key(baker, lang: str, battle: Battle, viewer: Viewer) -> str:
    parts = [
        "replay",
        baker.sources,
        baker.replay_sources,
        lang,
        battle.pk,
        battle.version,
        battle.updated_at,
        sorted(viewer.hidden),
        [(s.faction.slug, s.faction.name) for s in battle.sides.all()],  # "sides" names
    ]
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()[:32]


def bake(baker, lang: str) -> None:
    """Write ``<lang>/<battle.site_replay>`` for every battle that has one and whose key
    changed (in the active language); keep the others."""
    stale: list[tuple[Battle, Viewer, str]] = []
    for battle in baker.battles:
        if not getattr(battle, "site_replay", None):
            continue
        viewer = public_viewer(battle, baker.public_fleet_ids, baker.replay_units[battle.pk])
        key = _key(baker, lang, battle, viewer)
        if not baker.staging.current(f"{lang}/{battle.site_replay}", key):
            stale.append((battle, viewer, key))
    for start in range(0, len(stale), _CHUNK):
        chunk = stale[start : start + _CHUNK]
        rows: dict[int, list[dict[str, Any]]] = {b.pk: [] for b, _v, _k in chunk}
        events = (
            Event.objects.filter(battle__in=list(rows))
            .order_by("battle_id", "sequence")
            .values("battle_id", "game_turn", "phase", "kind", "summary", "data")
        )
        for row in events.iterator(chunk_size=5000):
            rows[row["battle_id"]].append(row)
        for battle, viewer, key in chunk:
            data = replay_json(battle, rows[battle.pk], viewer)
            baker.staging.write(f"{lang}/{battle.site_replay}", data, key)


def produce(baker) -> None:
    """The page producer (``builder.PAGE_PRODUCERS``): :func:`bake` in every language."""
    for lang in baker.langs:
        with translation.override(lang):
            bake(baker, lang)
