"""The after-action report pages of the baked site (``builder.PAGE_PRODUCERS``).

Each battle page is keyed by what it reads (the battle row, its sides, units and their
ships' state, its log's size, the names and paths it links to: ``rows.BattleRows``), so
a rebuild renders only the battles whose key changed. Those are loaded whole
:data:`CHUNK` at a time (``battles.reports.context.report_rows``: five queries a chunk, memory
bounded by the chunk), and each page of each language comes from one
``report_context``; SSDs are drawn once per ship state (``Baker.ship_svg``).
"""

from __future__ import annotations

import multiprocessing
import os
from typing import TYPE_CHECKING

from django.utils import translation

from battles.models import Battle
from battles.reports.context import report_context, report_rows
from campaign.publish import search
from campaign.publish.charts import losses_chart

if TYPE_CHECKING:
    from campaign.publish.builder import Baker

#: Battles loaded whole at a time.
CHUNK = 100
#: Processes rendering battle pages in a big build (the target machine has two cores).
MAX_WORKERS = 2


def _reads(baker: Baker, battle: Battle) -> list:
    """What ``battle``'s page reads, besides the language and the site's header."""
    sides = baker.rows.sides.get(battle.pk, ())
    factions = {s.faction_id for s in sides} | ({battle.winner_id} if battle.winner_id else set())
    names = sorted(
        (pk, baker.factions_by_pk[pk].name if pk in baker.factions_by_pk else None)
        for pk in factions
    )
    return [
        "battle", battle.pk, battle.version, battle.updated_at, battle.report_state,
        battle.name, battle.location, battle.campaign_turn, battle.game_system, battle.mode,
        battle.campaign.name, battle.campaign_id, battle.site_path, battle.site_pdfs, names,
        getattr(battle, "site_replay", None), getattr(battle, "site_map", None),
        [baker.faction_paths.get(s.faction_id) for s in sides],
        [(baker.fleet_paths.get(s.fleet_id), baker.fleet_titles.get(s.fleet_id)) for s in sides],
        baker.rows.battle_state(battle.pk, baker.public_reader),
    ]  # fmt: skip


def battles(baker: Baker) -> None:
    """Every battle's page in every language, rendering only those whose key changed."""
    todo: list[tuple[Battle, dict[str, str]]] = []
    for battle in baker.battles:
        reads = _reads(baker, battle)
        shard = search.shard("battles", battle.pk)
        keys = {
            lang: key
            for lang, key in baker.keys(*reads).items()
            if not baker.kept(lang, battle.site_path, key, shard)
        }
        if keys:
            todo.append((battle, keys))
    starts = range(0, len(todo), CHUNK)
    workers = _workers(len(starts))
    if workers > 1:
        _render_in_pool(baker, todo, starts, workers)
    else:
        for start in baker.progress(starts, len(starts), "battles"):
            _render_chunk(baker, todo[start : start + CHUNK])


def _workers(chunks: int) -> int:
    """Processes for ``chunks`` chunks of battles: one per core (at most
    :data:`MAX_WORKERS`) for a build of many battles, if the database allows it."""
    from django.db import connection

    if chunks < 4 or connection.in_atomic_block:  # a test's or a caller's transaction
        return 1
    if multiprocessing.current_process().daemon:  # e.g. a Celery prefork worker
        return 1
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        return 1
    return min(MAX_WORKERS, os.cpu_count() or 1, chunks)


#: The build being rendered by a pool's workers (forked: they inherit it, unpickled).
_POOL_STATE: tuple[Baker, list] | None = None


def _render_in_pool(baker: Baker, todo: list, starts: range, workers: int) -> None:
    """Render the chunks in ``workers`` forked processes (pages of different battles are
    independent files); each sends back what it wrote, which the staging records."""
    global _POOL_STATE
    from django.db import connections

    connections.close_all()  # each process opens its own connection
    _POOL_STATE = (baker, todo)
    try:
        context = multiprocessing.get_context("fork")
        with context.Pool(workers) as pool:
            done = pool.imap_unordered(_pool_chunk, starts)
            for new, written, pages, shards in baker.progress(done, len(starts), "battles"):
                baker.staging.new |= new
                baker.staging.written += written
                baker.result.pages += pages
                baker.shards |= shards
    finally:
        _POOL_STATE = None


def _pool_chunk(start: int) -> tuple[dict, list, list, dict]:
    baker, todo = _POOL_STATE
    staging = baker.staging
    staging.new, staging.written, baker.result.pages, baker.shards = {}, [], [], {}
    _render_chunk(baker, todo[start : start + CHUNK])
    return staging.new, staging.written, baker.result.pages, baker.shards


def _render_chunk(baker: Baker, chunk: list[tuple[Battle, dict[str, str]]]) -> None:

    full = Battle.objects.select_related("campaign", "winner").in_bulk([b.pk for b, _k in chunk])
    loaded = report_rows(list(full.values()), user=None)
    for summary, keys in chunk:
        battle = full[summary.pk]
        battle.site_path, battle.site_pdfs = summary.site_path, summary.site_pdfs
        # campaign.publish.replays and .maps: the replay file and the turn's map page
        battle.site_replay = getattr(summary, "site_replay", None)
        battle.site_map = getattr(summary, "site_map", None)
        depth = battle.site_path.count("/")
        shard = search.shard("battles", battle.pk)
        for lang, key in keys.items():
            with translation.override(lang):
                context = report_context(
                    battle,
                    user=None,
                    asset_prefix="../" * (depth + 1) + "static/",
                    preloaded=loaded[battle.pk],
                    draw_ship=baker.ship_svg,
                )
                chart = losses_chart(context["losses"])
            links = [
                {
                    "faction": s["faction"],
                    "faction_path": baker.faction_paths.get(s["faction"].pk),
                    "fleet": s["fleet"],
                    "fleet_path": baker.fleet_paths.get(s["fleet"].pk) if s["fleet"] else None,
                }
                for s in context["sides"]
            ]
            context |= {
                "pdf_path": battle.site_pdfs.get(lang),
                "losses_chart": chart,
                "side_links": links,
                "campaign_path": baker.campaigns_by_pk[battle.campaign_id].site_path,
            }
            baker.page(lang, battle.site_path, "site/battle.html", context, key=key, shard=shard)
