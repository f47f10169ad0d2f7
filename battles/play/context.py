"""Read-side context of the turn-by-turn, replay and odds panels:
what a viewer may see, built from the stored log, the stored orders and the rebuilt
state. Views call these and render; nothing here writes."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache as django_cache
from django.db.models import Count, Max
from django.utils.translation import get_language, gettext

from battles.access import battle_perspective
from battles.models import Battle, BattleSide, Event, Participant
from battles.models.turn_orders import TurnOrders, TurnPlay
from battles.play.board import Viewer, board_view
from battles.play.contacts import ContactKeys
from battles.play.forms import order_sheet, targets_for
from battles.play.game_turns import turn_state
from battles.refs import parse_ref, ship_ref
from battles.visibility import Reader, battle_units, fleet_hidden, hidden_refs, reader_for
from campaign.league.roles import is_organiser
from factions.ssd.draw import system_labels

__all__ = [
    "battle_viewer",
    "board_for",
    "contact_keys",
    "odds_panel",
    "phase_names",
    "turn_context",
    "turn_links",
]


def phase_names() -> list[str]:
    """Names of phase 0 (set-up) and the eleven phases of rules §2, in the active language,
    indexed by phase number."""
    return [
        gettext("set-up"),
        gettext("orders"),
        gettext("initiative"),
        gettext("launches"),
        gettext("missiles and drones move"),
        gettext("ship movement"),
        gettext("fighters and gunboats move"),
        gettext("sensors"),
        gettext("light-unit intent"),
        gettext("ship fire"),
        gettext("light-unit fire"),
        gettext("end of turn"),
    ]


def battle_viewer(
    battle: Battle, user: Any, perspective: tuple[str, str | None] | None = None
) -> Viewer:
    """The :class:`Viewer` ``user`` is for ``battle`` (``battles.access.battle_perspective``;
    ``perspective``: its answer when the caller has it)."""
    mode, side = perspective or battle_perspective(user, battle)
    if mode == "public":
        units = battle_units([battle.pk])[battle.pk]
        reader = reader_for(user, among={u.fleet_id for u in units})
        return Viewer("public", hidden=hidden_refs(units, reader))
    return Viewer(mode, side, battle=battle.pk if mode == "side" else None)


def contact_keys(
    battle: Battle, viewer: Viewer, setup: dict[str, Any] | None = None
) -> ContactKeys:
    """The keys ``viewer`` knows the enemy's units by (``battles.play.contacts``):
    translation only for a ``side`` viewer. ``setup``: the ``setup`` row's data if at hand
    (else one query; a battle with no engine log: its participants' ships)."""
    if viewer.mode != "side":
        return ContactKeys(battle.pk, None)
    if setup is None:
        row = Event.objects.filter(battle=battle, kind="setup").values_list("data", flat=True)
        setup = row.first()
    if setup is None:  # no engine log yet: the ships set up so far
        ships = Participant.objects.filter(side__battle=battle, ship__isnull=False)
        setup = {
            "ships": {
                ship_ref(sid): {"side": slug}
                for sid, slug in ships.values_list("ship_id", "side__faction__slug")
            }
        }
    return ContactKeys.from_setup(battle.pk, viewer.side, setup)


def _side_names(battle: Battle) -> dict[str, str]:
    return {
        s.faction.slug: s.faction.name
        for s in BattleSide.objects.filter(battle=battle).select_related("faction")
    }


@cache
def _board_code() -> str:
    # What draws a board and words its log: read once per process (a deploy restarts
    # it), so that a shared cache (Redis) never serves a board another code drew.
    base = Path(settings.BASE_DIR)
    files = [base / "battles/play/board.py", *sorted((base / "battles/log").glob("*.py"))]
    files += sorted((base / "locale").glob("*/LC_MESSAGES/django.mo"))
    sha = hashlib.sha256()
    for file in files:
        sha.update(file.read_bytes())
    return sha.hexdigest()[:16]


def board_for(battle: Battle, viewer: Viewer) -> dict[str, Any]:
    """The board JSON of ``battle`` for ``viewer`` (``battles.play.board.board_view``),
    built once per log, viewer, side names and language: cached (Django's cache,
    ``BATTLE_CACHE_SECONDS``; 0: built every time) under a key holding how many log
    entries the battle has and the last one's id (its entries are only ever added or
    deleted, ids never reused), the viewer (mode, side, the units hidden from it), the
    sides' names and the language. A turn played, a reopen or a renamed faction changes
    the key: no stale board is ever served, nor one viewer's board to another.
    Three queries when cached (the sides' names, the log's counts), else four."""
    side_names = _side_names(battle)
    events = Event.objects.filter(battle=battle)
    seconds = settings.BATTLE_CACHE_SECONDS

    def build() -> dict[str, Any]:
        rows = events.order_by("sequence").values("game_turn", "phase", "kind", "summary", "data")
        return board_view(rows, viewer, side_names=side_names)

    if seconds <= 0:
        return build()
    counts = events.aggregate(n=Count("pk"), last=Max("pk"))
    payload = [
        _board_code(),
        counts["n"],
        counts["last"],
        [viewer.mode, viewer.side, viewer.battle, sorted(viewer.hidden)],
        sorted(side_names.items()),
        get_language(),
    ]
    digest = hashlib.sha256(json.dumps(payload, default=str).encode()).hexdigest()
    key = f"battle-board:{battle.pk}:{digest}"
    board = django_cache.get(key)
    if board is None:
        board = build()
        django_cache.set(key, board, seconds)
    return board


def _labels(board: dict[str, Any]) -> dict[str, str]:
    """Marker id -> label on the last frame; a blip's label (◆◆◆) with its key, so that
    two blips can be told apart in a list of targets."""
    last = board["frames"][-1] if board["frames"] else []
    return {m["id"]: f"{m['label']} {m['id']}" if m["kind"] == "blip" else m["label"] for m in last}


def turn_context(battle: Battle, user: Any, *, posted: dict[str, Any] | None = None) -> dict:
    """Everything the turn page shows ``user``: the play (or None), the board, whether
    each side has ordered this turn (never what), the user's side's order sheet (with
    ``posted`` orders, else its stored ones), the targets it may name, and for organisers
    every side's orders for the turn and the deadline."""
    viewer = battle_viewer(battle, user)
    play = TurnPlay.objects.filter(battle=battle).first()
    board = board_for(battle, viewer)
    context: dict[str, Any] = {
        "battle": battle,
        "play": play,
        "viewer": viewer,
        "board": board,
        "is_organiser": viewer.mode == "all",
        "sheet": [],
        "targets": [],
        "phase_names": phase_names(),
    }
    if play is None:
        return context
    sides = list(BattleSide.objects.filter(battle=battle).select_related("faction"))
    given = {
        o.side_id: o for o in TurnOrders.objects.filter(battle=battle, game_turn=play.current_turn)
    }
    context["status"] = [
        {"side": s, "in": s.pk in given, "own": s.faction.slug == viewer.side} for s in sides
    ]
    if viewer.mode == "all":
        context["orders_in"] = [(s, given[s.pk].orders) for s in sides if s.pk in given]
    if viewer.mode == "side" and not play.ended:
        own = next(s for s in sides if s.faction.slug == viewer.side)
        state = turn_state(play=play)
        keys = contact_keys(battle, viewer, play.setup["data"])
        stored = posted  # as posted: targets by key already
        if stored is None:
            stored = keys.orders_out(given[own.pk].orders) if own.pk in given else {}
        context["own_side"] = own
        context["sheet"] = order_sheet(state, viewer.side, stored)
        context["targets"] = targets_for(state, viewer.side, _labels(board), rename=keys.opaque)
        context["own_in"] = own.pk in given
    return context


def _ship_names(participants: Any, setup: dict[str, Any] | None) -> dict[str, str]:
    """Engine ship id -> the name the board gives it ("Kashat-E 1", from the ``setup``
    row); without a log, the ship's name, its class's with "#<id>" when two would read
    alike (two Kashat-E were indistinguishable in the odds panel otherwise)."""
    logged = {sid: row.get("name") for sid, row in ((setup or {}).get("ships") or {}).items()}
    plain = {ship_ref(p.ship_id): p.ship.name or p.ship.ship_class.name for p in participants}
    counts: dict[str, int] = {}
    for name in plain.values():
        counts[name] = counts.get(name, 0) + 1
    return {
        sid: logged.get(sid) or (f"{name} #{parse_ref(sid)[1]}" if counts[name] > 1 else name)
        for sid, name in plain.items()
    }


def odds_panel(
    battle: Battle,
    user: Any,
    board: dict[str, Any] | None = None,
    *,
    viewer: Viewer | None = None,
    reader: Reader | None = None,
) -> dict | None:
    """The odds panel's data: the weapons of the ships ``user`` fights with
    (organisers: every ship's) and the targets they may pick, with ids matching the
    board's markers so the range can be read from the map (``board``: True when
    ``board`` has frames to read it from). None for users with no ship in the battle.
    ``viewer`` (:func:`battle_viewer`) and ``reader`` (``battles.visibility.reader_for``
    asked about the battle's fleets) when the caller has them, else read here."""
    if viewer is None:
        if battle_perspective(user, battle)[0] == "public":
            return None  # asked first: the public's viewer reads the battle's units
        viewer = battle_viewer(battle, user)
    if viewer.mode == "public":
        return None
    participants = (
        Participant.objects.filter(side__battle=battle, ship__isnull=False)
        .select_related("ship__ship_class", "side__faction")
        .order_by("side__order", "pk")
    )
    weapons, targets = [], []
    setup = Event.objects.filter(battle=battle, kind="setup").values_list("data", flat=True)
    setup = setup.first()
    keys = contact_keys(battle, viewer, setup)
    labels = _labels(board) if board else {}
    on_board = {m["id"] for frame in (board or {}).get("frames", []) for m in frame}
    # Once concluded the report names the enemy ships of the fleets the user may see
    # (the panel would still say "contact-1" after the battle); their keys stay the ids.
    concluded = battle.status == Battle.Status.CONCLUDED
    if reader is None:  # read only where it is asked: concluded, or no board
        needed = concluded or not on_board
        among = {p.ship.fleet_id for p in participants}
        reader = reader_for(user, among=among) if needed else Reader(frozenset())
    if not on_board:  # no engine log: enemies of fleets the user may see
        on_board = {
            keys.opaque(ship_ref(p.ship_id))
            for p in participants
            if not fleet_hidden(reader, p.ship.fleet_id)
        }
    names = _ship_names(participants, setup)
    for p in participants:
        ship_id = ship_ref(p.ship_id)
        own = viewer.mode == "all" or p.side.faction.slug == viewer.side
        name = (labels.get(ship_id) or names[ship_id]) if own else ""
        if not own:
            ship_id = keys.opaque(ship_id)  # a side knows enemy ships by their keys only
        if own:
            design = p.ship.ship_class.design or {}
            systems = system_labels(design)
            for system in design.get("systems", []):
                if system.get("kind") == "weapon" and system.get("weapon"):
                    sid = str(system.get("id"))
                    weapons.append(
                        {
                            "ship": ship_id,
                            "label": f"{name} — {sid} ({systems.get(sid, system['weapon'])})",
                            "weapon": system["weapon"],
                        }
                    )
        if viewer.mode == "all" or (not own and ship_id in on_board):
            if own:
                label = labels.get(ship_id) or name
            elif concluded and not fleet_hidden(reader, p.ship.fleet_id):
                label = names[ship_ref(p.ship_id)]  # as the report names it
            else:
                label = labels.get(ship_id) or ship_id
            targets.append({"id": ship_id, "label": label})
    if not weapons:
        return None
    # "Read from the map" needs a board drawn on the page (the battle page has none).
    return {"weapons": weapons, "targets": targets, "board": bool(board and board.get("frames"))}


def turn_links(
    battle: Battle,
    user: Any,
    *,
    has_log: bool | None = None,
    organiser: bool | None = None,
    reader: Reader | None = None,
    with_odds: bool = True,
) -> dict[str, Any]:
    """The battle page's extras: ``replay`` (it has an engine log to play back; ``has_log``
    when the caller knows, else one query),
    ``turns`` (organisers of a draft: the turn-by-turn page), ``turn_play_running`` (a
    turn-by-turn play not ended: the page offers no auto-resolve or record meanwhile), the
    odds panel (unless ``with_odds`` is False: the caller reads it, :func:`odds_panel`).
    ``has_log``, ``organiser`` (``is_organiser``) and ``reader`` (asked about the battle's
    fleets) when the caller has them, else read here."""
    if has_log is None:
        has_log = Event.objects.filter(battle=battle, kind="setup").exists()
    if organiser is None:
        organiser = is_organiser(user, battle.campaign)
    return {
        "replay": has_log,
        "turns": organiser and battle.status == Battle.Status.DRAFT,
        # A play under way decides the result: no resolve or record offered meanwhile.
        "turn_play_running": battle.status == Battle.Status.DRAFT
        and TurnPlay.objects.filter(battle_id=battle.pk, ended=False).exists(),
        "odds": odds_panel(battle, user, viewer=Viewer("all") if organiser else None, reader=reader)
        if with_odds
        else None,
    }
