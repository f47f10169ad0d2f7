"""Page producers of the baked site (``builder.PAGE_PRODUCERS``): home, campaigns,
factions, fleets, ships, the battle lists, the feeds and the search page.

Each producer writes its pages of every language through ``Baker.page``. Battle lists are
cut into pages of :data:`LIST_SIZE` battles, oldest first, so a new battle changes only
the list page it lands on (usually the last); the campaign and faction pages show the
latest :data:`LATEST` battles and link to every list page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils import translation
from django.utils.safestring import mark_safe

from battles.scoring.charts import standings_charts
from battles.scoring.rules import rules_in_words
from campaign.publish import feeds, search
from campaign.publish.charts import standings_chart
from campaign.publish.rows import instance_row
from campaign.publish.standings import public_scoreboard, standings
from campaign.turns.models import RepairOrder
from campaign.turns.repairs import ACTIVE
from factions.commanders.records import commander_name
from factions.fleet_totals import fleet_totals

if TYPE_CHECKING:
    from battles.models import Battle
    from campaign.publish.builder import Baker

#: Battles per list page.
LIST_SIZE = 100
#: Battles a campaign or faction page shows (its latest), besides the links to its lists.
LATEST = 20


def _latest(baker: Baker) -> list[Battle]:
    published = [b for b in baker.battles if b.report_state == "published"]
    return sorted(published, key=lambda b: b.report_published_at or b.updated_at, reverse=True)


def home(baker: Baker) -> None:
    latest = _latest(baker)[:10]
    campaigns = [
        {
            "campaign": c,
            "battles": baker.battles_by_campaign[c.pk],
            "lists": _list_pages(_campaign_folder(c), baker.battles_by_campaign[c.pk]),
        }
        for c in baker.campaigns
    ]
    for lang in baker.langs:
        context = {
            "campaigns": campaigns,
            "factions": baker.factions,
            "latest": latest,
            # the battles recorded last, newest first (every battle is on a list page)
            "battles": sorted(baker.battles, key=lambda b: b.pk)[-LATEST:][::-1],
        }
        baker.page(lang, "index.html", "site/index.html", context)


def _campaign_folder(campaign: Any) -> str:
    return campaign.site_path.removesuffix(".html")


def _list_pages(folder: str, battles: list[Battle]) -> list[dict[str, Any]]:
    """``[{"path", "number", "first", "last"}]``: the list pages of ``battles`` under
    ``folder`` (``first``/``last`` are 1-based battle numbers)."""
    return [
        {
            "path": f"{folder}/battles-{n + 1}.html",
            "number": n + 1,
            "first": start + 1,
            "last": min(start + LIST_SIZE, len(battles)),
        }
        for n, start in enumerate(range(0, len(battles), LIST_SIZE))
    ]


def campaigns(baker: Baker) -> None:
    for campaign in baker.campaigns:
        battles = baker.battles_by_campaign[campaign.pk]
        rows = standings(battles, baker.rows, baker.public_fleet_ids, baker.factions_by_pk)
        for row in rows:
            row["path"] = baker.faction_paths.get(row["faction"].pk)
        board = public_scoreboard(campaign)
        for lang in baker.langs:
            with translation.override(lang):
                chart = standings_chart(rows)
                vp_charts = standings_charts(board)
                rules_words = rules_in_words(board.rules)
            baker.page(
                lang,
                campaign.site_path,
                "site/campaign.html",
                {
                    "campaign": campaign,
                    "description_html": baker.md(campaign.description, "../", "campaign"),
                    "battles": battles[-LATEST:][::-1],
                    "battle_count": len(battles),
                    "lists": _list_pages(_campaign_folder(campaign), battles),
                    "standings": rows,
                    "standings_chart": chart,
                    "board": board,
                    "charts": vp_charts,
                    "rules_words": rules_words,
                },
            )


def public_commanders(fleets: list[Any]) -> list[Any]:
    """The commanders of ``fleets`` (public ones, read with their admiral, squadrons'
    commanders and ships' captains): admirals first, then by name; no query."""
    people = {}
    for fleet in fleets:
        for holder, post in (
            [(fleet, "admiral")]
            + [(sq, "commander") for sq in fleet.squadrons.all()]
            + [(ship, "captain") for ship in fleet.ships.all()]
        ):
            person = getattr(holder, post, None)  # a missing one-to-one raises
            # A captured captain aboard a ship now in the captor's fleet is not the
            # captor's commander.
            if person is not None and person.faction_id == fleet.faction_id:
                people[person.pk] = person
    return sorted(people.values(), key=lambda c: (c.rank != "admiral", c.name, c.pk))


def _commander_rows(fleet: Any, squadrons: list[Any], ships: list[Any]) -> list[Any]:
    """What a fleet page shows of its commanders (name and status by place), for its key."""
    return [
        (post, holder.pk, person.name, person.status)
        for holder, post in [(fleet, "admiral")]
        + [(sq, "commander") for sq in squadrons]
        + [(s, "captain") for s in ships]
        if (person := getattr(holder, post, None)) is not None
    ]


def factions(baker: Baker) -> None:
    for faction in baker.factions:
        battles = baker.battles_by_faction[faction.pk]
        context = {
            "faction": faction,
            "description_html": baker.md(faction.description, "../", "faction"),
            "territories": list(faction.territories.all()),
            "fleets": baker.fleets_by_faction[faction.pk],
            "commanders": public_commanders(baker.fleets_by_faction[faction.pk]),
            "ship_classes": list(faction.ship_classes.all()),
            "battles": battles[-LATEST:][::-1],
            "battle_count": len(battles),
            "lists": _list_pages(faction.site_path.removesuffix(".html"), battles),
        }
        for lang in baker.langs:
            baker.page(lang, faction.site_path, "site/faction.html", context)


def repairs_by_fleet(fleets: list[Any]) -> dict[int, list[RepairOrder]]:
    """``{fleet id: open repair orders on its ships}`` for ``fleets`` (public ones), in
    one query: what ``campaign.turns.repairs.fleet_repairs`` gives each fleet (same
    orders, same order), which took one query a fleet (0.43 s of a 2 000-battle rebuild)."""
    by_fleet: dict[int, list[RepairOrder]] = {fleet.pk: [] for fleet in fleets}
    for order in (
        RepairOrder.objects.filter(ship__fleet__in=list(by_fleet), status=ACTIVE)
        .select_related("ship__ship_class", "yard", "campaign")
        .order_by("eta_turn", "pk")
    ):
        by_fleet[order.ship.fleet_id].append(order)
    return by_fleet


def fleets(baker: Baker) -> None:
    all_repairs = repairs_by_fleet(baker.fleets)
    for fleet in baker.fleets:
        ships = list(fleet.ships.all())
        light_units = list(fleet.light_units.all())
        squadrons = list(fleet.squadrons.all())
        repairs = all_repairs[fleet.pk]
        reads = (
            "fleet", instance_row(fleet), fleet.faction.name,
            baker.faction_paths.get(fleet.faction_id),
            [(instance_row(s), s.site_path, baker.rows.classes.get(s.ship_class_id))
             for s in ships],
            [(instance_row(g), g.carrier and (g.carrier.name, g.carrier.ship_class.name))
             for g in light_units],
            [instance_row(sq) for sq in squadrons],
            _commander_rows(fleet, squadrons, ships),
            [(instance_row(o), o.yard.name, str(o.ship)) for o in repairs],
        )  # fmt: skip
        keys = baker.keys(*reads)
        todo = [lang for lang in baker.langs if not baker.kept(lang, fleet.site_path, keys[lang])]
        if not todo:
            continue
        context = {
            "fleet": fleet,
            "faction_path": baker.faction_paths.get(fleet.faction_id),
            "description_html": baker.md(fleet.description, "../", "fleet"),
            "squadrons": [
                {"squadron": sq, "ships": [s for s in ships if s.squadron_id == sq.pk]}
                for sq in squadrons
            ],
            "unassigned": [s for s in ships if s.squadron_id is None],
            "light_units": light_units,
            "ship_count": len(ships),
            # Points of the ships afloat; ships in dock and their ETA
            "totals": fleet_totals(ships, light_units),
            "repairs": repairs,
        }
        for lang in todo:
            baker.page(lang, fleet.site_path, "site/fleet.html", context, key=keys[lang])


def ships(baker: Baker) -> None:
    all_ships = [s for fleet in baker.fleets for s in fleet.ships.all()]
    for ship in baker.progress(all_ships, len(all_ships), "ships"):
        reads = (
            "ship", ship.pk, ship.name, commander_name(ship, "captain"), ship.status,
            ship.hull_lost, ship.armour_lost, ship.crew_lost, ship.systems_lost, ship.ship_class_id,
            baker.rows.classes.get(ship.ship_class_id), ship.fleet.name,
            baker.fleet_paths.get(ship.fleet_id),
        )  # fmt: skip
        shard = search.shard("ships", ship.pk)
        for lang, key in baker.keys(*reads).items():
            if baker.kept(lang, ship.site_path, key, shard):
                continue
            with translation.override(lang):
                try:
                    svg = baker.ship_svg(ship)
                except Exception:  # a drawing failure leaves the page without its SSD
                    svg = ""
            context = {
                "ship": ship,
                "fleet": ship.fleet,
                "fleet_path": baker.fleet_paths.get(ship.fleet_id),
                "svg": mark_safe(svg),  # noqa: S308 - ElementTree escapes every text
            }
            baker.page(lang, ship.site_path, "site/ship.html", context, key=key, shard=shard)


def _list_row(battle: Battle) -> tuple:
    """What a battle list shows of ``battle`` (templates/site/_battle_list.html)."""
    winner = battle.winner.name if battle.winner_id else None
    return (
        battle.pk, battle.name, battle.site_path, battle.game_system, battle.location,
        battle.campaign_turn, winner, battle.site_pdfs,
    )  # fmt: skip


def battle_lists(baker: Baker) -> None:
    """The list pages of every campaign's and faction's battles."""
    owners = [
        (c, _campaign_folder(c), baker.battles_by_campaign[c.pk]) for c in baker.campaigns
    ] + [
        (f, f.site_path.removesuffix(".html"), baker.battles_by_faction[f.pk])
        for f in baker.factions
    ]
    for owner, folder, battles in owners:
        pages = _list_pages(folder, battles)
        for i, page in enumerate(pages):
            chunk = battles[page["first"] - 1 : page["last"]]
            previous = pages[i - 1] if i else None
            following = pages[i + 1] if i + 1 < len(pages) else None
            reads = (
                "list", owner.name, owner.site_path, page, previous, following,
                [_list_row(b) for b in chunk],
            )  # fmt: skip
            # Not searched (each battle's own page is): in the main bundle, the 600 list
            # pages of a 10 000-battle league cost 2 s of Pagefind at every new battle;
            # indexed with their newest battle, a list page moves from shard to shard as
            # it fills and drags a 500-battle shard along (3.5 s, search.py).
            shard = search.UNINDEXED
            for lang, key in baker.keys(*reads).items():
                if baker.kept(lang, page["path"], key, shard):
                    continue
                context = {
                    "owner": owner,
                    "owner_path": owner.site_path,
                    "battles": chunk,
                    "list_page": page,
                    "previous": previous,
                    "next": following,
                    "battle_count": len(battles),
                }
                baker.page(lang, page["path"], "site/battles.html", context, key=key, shard=shard)


def feeds_and_search(baker: Baker) -> None:
    """Each language's Atom feed and search page (which merges the index's shards)."""
    published = [b for b in baker.battles if b.report_state == "published"]
    shards = search.bundles(baker.shards)
    for lang in baker.langs:
        with translation.override(lang):
            feeds.write_feed(baker.staging, lang, published, baker.base_url)
        baker.result.pages.append(f"{lang}/feed.xml")
        baker.page(lang, "search.html", "site/search.html", {"merge_bundles": shards})
