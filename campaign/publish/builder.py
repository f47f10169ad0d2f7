"""Bake the public campaign into a folder of static files (DESIGN.md §5, issue 12 §4).

Plain baking with ``render_to_string``: every page is rendered as the anonymous public
(``campaign.access`` with ``user=None``), so a hidden fleet, its ships and its name, a
draft battle or an unpublished report's texts never reach the output. Links are relative
so the folder works from ``file://`` and from any static host.

Layout of ``out_dir`` (one tree per language, ``<lang>`` in ``--lang``)::

    index.html                              picks a language (links; no script)
    <lang>/index.html                       latest reports, campaigns, factions, battles
    <lang>/campaigns/<c>.html               battles, standings and chart of a campaign
    <lang>/factions/<f>.html                profile, territories, public fleets, classes
    <lang>/fleets/<f>.html                  fleet as publicly known, strength, ships
    <lang>/ships/<f>/<s>.html               a ship and its SSD
    <lang>/battles/<c>/<b>.html             the after-action report (site/battle.html)
    <lang>/search.html, <lang>/feed.xml     Pagefind search; Atom feed of published reports
    <lang>/replays/<c>/<b>.json             a battle's replay data (campaign.publish.replays)
    <lang>/maps/<c>/index.html, turn-<n>.html  the map per campaign turn (campaign.publish.maps)
    pdf/<c>/<b>.pdf                         the report's PDF (campaign's language)
    pagefind/                               the search index (``pagefind`` binary)
    static/                                 CSS, fonts, scripts, favicon
    sitemap.xml

Incremental (``campaign.publish.output``): a battle or ship page is keyed by what it reads
(versions, ship states, names, the templates) and not rendered again when its key is
unchanged; the other pages are rendered and written only when their bytes changed.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import Prefetch, Q
from django.template.loader import render_to_string
from django.utils import timezone, translation

from battles.models import Battle, BattleSide, Participant, Report
from campaign.access import visible_fleets
from campaign.models import Campaign
from factions.models import Faction, Fleet, LightUnitGroup, Ship
from turns.repairs import fleet_repairs

from . import feeds, maps, replays, search
from .charts import losses_chart, standings_chart
from .output import MARKER, SiteBuildError, Staging, prepare_out_dir
from .paths import assign_names

__all__ = ["MARKER", "SiteBuildError", "SiteBuildResult", "site_build"]

Progress = Callable[[Iterable[Any], int, str], Iterable[Any]]

#: Files whose change changes every page's key (templates, report code, styles).
_SOURCES = (
    "templates/site",
    "templates/reports",
    "battles/reports.py",
    "battles/log_text.py",
    "factions/ssd.py",
    "campaign/publish/builder.py",
    "locale",
)


@dataclass
class SiteBuildResult:
    """What a build produced: ``pages`` and ``pdfs`` are paths relative to ``out_dir``
    (every page of the site); ``written`` the files this build wrote (the rest were kept
    from the previous build, untouched)."""

    out_dir: Path
    languages: list[str] = field(default_factory=list)
    pages: list[str] = field(default_factory=list)
    pdfs: list[str] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    campaigns: int = 0
    factions: int = 0
    fleets: int = 0
    ships: int = 0
    battles: int = 0
    search_indexed: bool = False
    warnings: list[str] = field(default_factory=list)


def _no_progress(items: Iterable[Any], total: int, label: str) -> Iterable[Any]:
    return items


def _sources_digest() -> str:
    sha = hashlib.sha256()
    base = Path(settings.BASE_DIR)
    for name in _SOURCES:
        path = base / name
        files = sorted(path.rglob("*")) if path.is_dir() else [path]
        for file in files:
            if file.is_file() and file.suffix in {".html", ".py", ".mo", ".xml"}:
                sha.update(file.relative_to(base).as_posix().encode() + b"\0")
                sha.update(file.read_bytes())
    return sha.hexdigest()[:16]


def _key(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()[:32]


def _languages(langs: list[str] | None) -> list[str]:
    known = [code for code, _name in settings.LANGUAGES]
    langs = langs or known
    for lang in langs:
        if lang not in known:
            raise SiteBuildError(f"language {lang!r}: expected one of {', '.join(known)}")
    return langs


def site_build(
    *,
    out_dir: Path,
    campaign_slug: str | None = None,
    languages: list[str] | None = None,
    pdfs: bool = True,
    search_index: bool = True,
    base_url: str | None = None,
    progress: Progress = _no_progress,
) -> SiteBuildResult:
    """Bake the public site of every campaign (or of ``campaign_slug``) into ``out_dir``,
    one tree per language of ``languages`` (default: every language of the settings).

    Concluded battles only, their people's texts only once published; fleets from
    ``visible_fleets(None)``. ``pdfs``: copy each battle's PDF, rendering it first when no
    PDF of the battle's current version exists (``battles.services.report_render``, once
    per battle version); a failed rendering leaves the battle without a PDF link, never
    fails the build. ``search_index``: run Pagefind over the pages. ``base_url`` (None:
    ``settings.SITE_BASE_URL``) makes the feed's and sitemap's absolute URLs; without one
    the feed's links are relative and no sitemap is written (``campaign.publish.feeds``,
    a line in ``warnings``). The site is built in a staging folder and swapped in at the
    end; a failed build leaves the old one.

    Raises :class:`SiteBuildError` for an unknown campaign slug or language, a base URL
    that is not an absolute http(s) URL, or when ``out_dir`` is a non-empty folder that a
    previous build did not make.
    """
    base_url = feeds.base_url_checked(settings.SITE_BASE_URL if base_url is None else base_url)
    out_dir = Path(out_dir).resolve()
    campaigns = list(Campaign.objects.order_by("name"))
    if campaign_slug is not None:
        campaigns = [c for c in campaigns if c.slug == campaign_slug]
        if not campaigns:
            raise SiteBuildError(f"no campaign with slug {campaign_slug!r}")
    langs = _languages(languages)
    prepare_out_dir(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    with _locked(out_dir):
        return _build(out_dir, campaigns, campaign_slug, langs, pdfs, search_index, base_url,
                      progress)  # fmt: skip


@contextmanager
def _locked(out_dir: Path):
    """One build of ``out_dir`` at a time (two refresh tasks would race on the swap)."""
    with open(out_dir.parent / f".{out_dir.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _build(out_dir, campaigns, campaign_slug, langs, pdfs, search_index, base_url, progress):
    staging = Staging(out_dir)
    result = SiteBuildResult(out_dir=out_dir, languages=langs)
    try:
        baker = _Baker(staging, result, campaigns, campaign_slug, progress)
        baker.load()
        if pdfs:
            baker.pdfs()
        for lang in langs:
            with translation.override(lang):
                baker.bake(lang, langs, base_url)
        baker.statics()
        if not feeds.write_sitemap(staging, result.pages, base_url):
            result.warnings.append(feeds.NO_BASE_URL_WARNING)
        changed_pages = any(p.endswith(".html") for p in staging.written)
        result.removed = staging.finish_removals()
        if search_index and (changed_pages or result.removed or not staging.has("pagefind")):
            search.index(staging.root)
            result.search_indexed = True
        result.written = list(staging.written)
        staging.finish(keep=("pagefind/",))
    except BaseException:
        staging.abort()
        raise
    return result


class _Baker:
    """Loads the public data once (a fixed number of queries) and renders the pages."""

    def __init__(self, staging, result, campaigns, campaign_slug, progress):
        self.staging, self.result, self.campaigns = staging, result, campaigns
        self.campaign_slug, self.progress = campaign_slug, progress
        self.sources = _sources_digest()
        self.built_at = timezone.now()

    # --- data ----------------------------------------------------------------------

    def load(self) -> None:
        campaign_ids = [c.pk for c in self.campaigns]
        participants = Participant.objects.select_related(
            "ship__ship_class", "ship__fleet", "light_units__carrier"
        ).order_by("pk")
        side_qs = BattleSide.objects.select_related("faction", "fleet").prefetch_related(
            Prefetch("participants", queryset=participants),
            "system_units",  # other game systems' units (public roster)
        )
        self.battles = list(
            Battle.objects.filter(campaign_id__in=campaign_ids, status=Battle.Status.CONCLUDED)
            .select_related("campaign", "winner")
            .prefetch_related(Prefetch("sides", queryset=side_qs))
            .order_by("campaign__name", "campaign_turn", "date", "name", "pk")
        )
        faction_q = Q(campaigns__in=campaign_ids) | Q(battle_sides__battle__in=self.battles)
        if self.campaign_slug is None:
            faction_q = Q()
        self.factions = list(
            Faction.objects.filter(faction_q)
            .distinct()
            .order_by("name")
            .prefetch_related("territories", "ship_classes")
        )
        self.fleets = list(
            visible_fleets(None)
            .filter(faction__in=self.factions)
            .select_related("faction")
            .prefetch_related(
                "squadrons",
                Prefetch(
                    "ships",
                    queryset=Ship.objects.select_related(
                        "ship_class__faction", "squadron"
                    ).order_by("pk"),
                ),
                Prefetch(
                    "light_units",
                    queryset=LightUnitGroup.objects.select_related("carrier__ship_class"),
                ),
            )
            .order_by("faction__name", "name")
        )
        self.public_fleet_ids = set(visible_fleets(None).values_list("pk", flat=True))
        reports = Report.objects.filter(
            battle__in=self.battles, format=Report.Format.PDF, status=Report.Status.READY
        )
        self.pdf_reports = {r.battle_id: r for r in reports}
        # File names: unique per folder, lower-case (campaign/publish/paths.py).
        self.campaign_names = assign_names(self.campaigns)
        self.faction_names = assign_names(self.factions)
        self.fleet_names = assign_names(self.fleets)
        by_campaign: dict[int, list[Battle]] = defaultdict(list)
        for battle in self.battles:
            by_campaign[battle.campaign_id].append(battle)
        self.battles_by_campaign = by_campaign
        self.battle_names: dict[int, str] = {}
        for items in by_campaign.values():
            self.battle_names |= assign_names(items)
        self.battles_by_faction: dict[int, list[Battle]] = defaultdict(list)
        for battle in self.battles:
            battle.site_path = self.battle_path(battle)
            for side in battle.sides.all():
                self.battles_by_faction[side.faction_id].append(battle)
        for faction in self.factions:
            faction.site_path = f"factions/{self.faction_names[faction.pk]}.html"
        self.fleets_by_faction: dict[int, list[Fleet]] = defaultdict(list)
        self.ship_paths: dict[int, str] = {}
        for fleet in self.fleets:
            fleet.site_path = f"fleets/{self.fleet_names[fleet.pk]}.html"
            self.fleets_by_faction[fleet.faction_id].append(fleet)
            ships = list(fleet.ships.all())
            names = assign_names(
                [_Named(s.pk, s.name or s.ship_class.name or f"ship-{s.pk}") for s in ships]
            )
            for ship in ships:
                ship.site_path = f"ships/{self.fleet_names[fleet.pk]}/{names[ship.pk]}.html"
                self.ship_paths[ship.pk] = ship.site_path
        for campaign in self.campaigns:
            campaign.site_path = f"campaigns/{self.campaign_names[campaign.pk]}.html"
        self.faction_paths = {f.pk: f.site_path for f in self.factions}
        self.fleet_paths = {f.pk: f.site_path for f in self.fleets}
        self.result.campaigns, self.result.factions = len(self.campaigns), len(self.factions)
        self.result.fleets, self.result.battles = len(self.fleets), len(self.battles)
        self.result.ships = len(self.ship_paths)
        # --- hooks of other page kinds (their own modules) ---
        replays.prepare(self)  # battle.site_replay
        maps.prepare(self)  # campaign.site_map, battle.site_map

    def battle_path(self, battle: Battle) -> str:
        campaign = self.campaign_names.get(battle.campaign_id) or str(battle.campaign_id)
        return f"battles/{campaign}/{self.battle_names[battle.pk]}.html"

    def pdf_path(self, battle: Battle) -> str:
        return "pdf/" + battle.site_path.removeprefix("battles/").removesuffix(".html") + ".pdf"

    # --- PDFs ----------------------------------------------------------------------

    def pdfs(self) -> None:
        """Copy each battle's PDF of its current version, rendering the missing ones
        (``report_render`` is idempotent per battle version and content)."""
        from battles.services import ReportRenderError, report_is_current, report_render

        for battle in self.progress(self.battles, len(self.battles), "PDF"):
            report = self.pdf_reports.get(battle.pk)
            if not report_is_current(report, battle):
                try:
                    report = report_render(battle_id=battle.pk, fmt="pdf")
                except ReportRenderError:
                    continue  # marked failed; the page shows no PDF link
                self.pdf_reports[battle.pk] = report
            source = Path(settings.MEDIA_ROOT) / report.file.name
            if not source.is_file():
                continue
            relative = self.pdf_path(battle)
            key = _key("pdf", report.digest, report.version)
            if not self.staging.current(relative, key):
                self.staging.write(relative, source.read_bytes(), key)
            battle.site_pdf = relative
            self.result.pdfs.append(relative)

    # --- pages ---------------------------------------------------------------------

    def page(self, lang: str, relative: str, template: str, context: dict, key=None) -> None:
        """Render ``template`` to ``<lang>/<relative>`` (skipped when ``key`` is the
        previous build's: the page reads nothing that changed)."""
        target = f"{lang}/{relative}"
        self.result.pages.append(target)
        if key is not None and self.staging.current(target, key):
            return
        depth = relative.count("/")
        root = "../" * depth
        context = {
            **self.base,
            **context,
            "root": root,
            "site_root": root + "../",
            "page_path": relative,
            "lang": lang,
        }
        html = render_to_string(template, context).encode("utf-8")
        self.staging.write(target, html, key or hashlib.sha256(html).hexdigest()[:32])

    def bake(self, lang: str, langs: list[str], base_url: str) -> None:
        published = [b for b in self.battles if b.report_state == "published"]
        latest = sorted(
            published, key=lambda b: b.report_published_at or b.updated_at, reverse=True
        )[:10]
        self.base = {
            "built_at": self.built_at,
            "site_campaigns": self.campaigns,
            "site_languages": [code for code in langs if code != lang],
            "LANGUAGE_CODE": lang,
        }
        self.page(
            lang,
            "index.html",
            "site/index.html",
            {
                "campaigns": [
                    {"campaign": c, "battles": self.battles_by_campaign[c.pk]}
                    for c in self.campaigns
                ],
                "factions": self.factions,
                "battles": self.battles,
                "latest": latest,
            },
        )
        self.page(lang, "search.html", "site/search.html", {})
        maps.bake(self, lang)  # <lang>/maps/<campaign>/…: the map per campaign turn
        replays.bake(self, lang)  # <lang>/replays/<campaign>/<battle>.json
        for campaign in self.campaigns:
            self._campaign(lang, campaign)
        for faction in self.factions:
            self._faction(lang, faction)
        for fleet in self.fleets:
            self._fleet(lang, fleet)
        ships = [s for fleet in self.fleets for s in fleet.ships.all()]
        for ship in self.progress(ships, len(ships), f"ships [{lang}]"):
            self._ship(lang, ship)
        for battle in self.progress(self.battles, len(self.battles), f"battles [{lang}]"):
            self._battle(lang, battle)
        feeds.write_feed(self.staging, lang, published, base_url)
        self.result.pages.append(f"{lang}/feed.xml")

    def _md(self, text: str, root: str, section: str) -> Any:
        from battles.reports import render_markdown

        return render_markdown(text, asset_prefix=f"{root}../static/", id_prefix=f"{section}-")

    def _campaign(self, lang: str, campaign: Campaign) -> None:
        from campaign.publish.standings import standings

        rows = standings(self.battles_by_campaign[campaign.pk], self.public_fleet_ids)
        for row in rows:
            row["path"] = self.faction_paths.get(row["faction"].pk)
        self.page(
            lang,
            campaign.site_path,
            "site/campaign.html",
            {
                "campaign": campaign,
                "description_html": self._md(campaign.description, "../", "campaign"),
                "battles": self.battles_by_campaign[campaign.pk],
                "standings": rows,
                "standings_chart": standings_chart(rows),
            },
        )

    def _faction(self, lang: str, faction: Faction) -> None:
        self.page(
            lang,
            faction.site_path,
            "site/faction.html",
            {
                "faction": faction,
                "description_html": self._md(faction.description, "../", "faction"),
                "territories": list(faction.territories.all()),
                "fleets": self.fleets_by_faction[faction.pk],
                "ship_classes": list(faction.ship_classes.all()),
                "battles": self.battles_by_faction[faction.pk],
            },
        )

    def _fleet(self, lang: str, fleet: Fleet) -> None:
        from factions.fleet_totals import fleet_totals

        ships = list(fleet.ships.all())
        light_units = list(fleet.light_units.all())
        self.page(
            lang,
            fleet.site_path,
            "site/fleet.html",
            {
                "fleet": fleet,
                "faction_path": self.faction_paths.get(fleet.faction_id),
                "description_html": self._md(fleet.description, "../", "fleet"),
                "squadrons": [
                    {"squadron": sq, "ships": [s for s in ships if s.squadron_id == sq.pk]}
                    for sq in fleet.squadrons.all()
                ],
                "unassigned": [s for s in ships if s.squadron_id is None],
                "light_units": light_units,
                "ship_count": len(ships),
                # issue 11: points of the ships afloat; ships in dock and their ETA
                "totals": fleet_totals(ships, light_units),
                "repairs": fleet_repairs(fleet),
            },
        )

    def _ship(self, lang: str, ship: Ship) -> None:
        from factions.ssd import ship_svg

        key = _key(
            "ship",
            self.sources,
            lang,
            ship.pk,
            ship.name,
            ship.captain,
            ship.status,
            ship.hull_lost,
            ship.armour_lost,
            ship.crew_lost,
            ship.systems_lost,
            ship.ship_class_id,
            ship.ship_class.name,
            ship.ship_class.design,
            ship.fleet.name,
            self.fleet_paths.get(ship.fleet_id),
            [c.name for c in self.campaigns],
        )
        if self.staging.current(f"{lang}/{ship.site_path}", key):
            self.result.pages.append(f"{lang}/{ship.site_path}")
            return
        try:
            svg = ship_svg(ship)
        except Exception:  # a drawing failure leaves the page without its SSD
            svg = ""
        from django.utils.safestring import mark_safe

        self.page(
            lang,
            ship.site_path,
            "site/ship.html",
            {
                "ship": ship,
                "fleet": ship.fleet,
                "fleet_path": self.fleet_paths.get(ship.fleet_id),
                "svg": mark_safe(svg),  # noqa: S308 - ElementTree escapes every text
            },
            key=key,
        )

    def _battle(self, lang: str, battle: Battle) -> None:
        from battles.reports import report_context

        sides = list(battle.sides.all())
        state = [
            (
                p.pk,
                p.fate,
                p.ship_id and (p.ship.hull_lost, p.ship.armour_lost, p.ship.crew_lost),
                p.ship_id and p.ship.systems_lost,
                p.ship_id and p.ship.fleet_id in self.public_fleet_ids,
            )
            for side in sides
            for p in side.participants.all()
        ]
        key = _key(
            "battle",
            self.sources,
            lang,
            battle.pk,
            battle.version,
            battle.updated_at,
            battle.report_state,
            state,
            [(s.fleet_id, s.fleet_id in self.public_fleet_ids) for s in sides],
            [self.faction_paths.get(s.faction_id) for s in sides],
            [self.fleet_paths.get(s.fleet_id) for s in sides],
            getattr(battle, "site_pdf", None),
            getattr(battle, "site_replay", None),  # campaign.publish.replays
            getattr(battle, "site_map", None),  # campaign.publish.maps
            [c.name for c in self.campaigns],
        )
        target = f"{lang}/{battle.site_path}"
        if self.staging.current(target, key):
            self.result.pages.append(target)
            return
        depth = battle.site_path.count("/")
        context = report_context(battle, user=None, asset_prefix="../" * (depth + 1) + "static/")
        links = [
            {
                "faction": s["faction"],
                "faction_path": self.faction_paths.get(s["faction"].pk),
                "fleet": s["fleet"],
                "fleet_path": self.fleet_paths.get(s["fleet"].pk) if s["fleet"] else None,
            }
            for s in context["sides"]
        ]
        self.page(
            lang,
            battle.site_path,
            "site/battle.html",
            {
                **context,
                "pdf_path": getattr(battle, "site_pdf", None),
                "losses_chart": losses_chart(context["losses"]),
                "side_links": links,
                "campaign_path": self.campaigns_by_pk[battle.campaign_id].site_path,
            },
            key=key,
        )

    @property
    def campaigns_by_pk(self) -> dict[int, Campaign]:
        return {c.pk: c for c in self.campaigns}

    # --- static files --------------------------------------------------------------

    def statics(self) -> None:
        for folder in settings.STATICFILES_DIRS:
            folder = Path(folder)
            for path in sorted(folder.rglob("*")):
                if path.is_file():
                    data = path.read_bytes()
                    relative = "static/" + path.relative_to(folder).as_posix()
                    self.staging.write(relative, data, hashlib.sha256(data).hexdigest()[:32])
        chooser = render_to_string(
            "site/languages.html",
            {"languages": self.result.languages, "campaigns": self.campaigns},
        ).encode("utf-8")
        self.staging.write("index.html", chooser, hashlib.sha256(chooser).hexdigest()[:32])
        self.result.pages.append("index.html")


class _Named:
    """A pk and a slug-like name, for :func:`assign_names` of ships (which have no slug)."""

    def __init__(self, pk: int, slug: str):
        self.pk, self.slug = pk, slug
