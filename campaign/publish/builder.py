"""Bake the public campaign into a folder of static files.

Plain baking with ``render_to_string``: every page is rendered as the anonymous public
(the ``access`` helpers with ``user=None``), so a hidden fleet, its ships and its name, a
draft battle or an unpublished report's texts never reach the output. Links are relative
so the folder works from ``file://`` and from any static host.

Layout of ``out_dir`` (one tree per language, ``<lang>`` in ``--lang``)::

    index.html                              picks a language (links; no script)
    <lang>/index.html                       latest reports, campaigns, factions
    <lang>/campaigns/<c>.html               standings, chart, latest battles of a campaign
    <lang>/campaigns/<c>/battles-<n>.html   its battles, LIST_SIZE a page, oldest first
    <lang>/factions/<f>.html                profile, territories, public fleets, classes
    <lang>/factions/<f>/battles-<n>.html    the battles it fought, LIST_SIZE a page
    <lang>/fleets/<f>.html                  fleet as publicly known, strength, ships
    <lang>/ships/<f>/<s>.html               a ship and its SSD
    <lang>/battles/<c>/<b>.html             the after-action report (site/battle.html)
    <lang>/search.html, <lang>/feed.xml     Pagefind search; Atom feed of published reports
    <lang>/replays/<c>/<b>.json             a battle's replay data (campaign.publish.replays)
    <lang>/maps/<c>/index.html, turn-<n>.html  the map per campaign turn (campaign.publish.maps)
    pdf/<lang>/<c>/<b>.pdf                  the report's PDF in that language
    pagefind/                               the search index, in shards (``search.py``)
    static/                                 CSS, fonts, scripts, favicon
    sitemap.xml

Pages come from the :data:`PAGE_PRODUCERS` (``campaign.publish.pages``,
``campaign.publish.battle_pages``): each is called with the :class:`Baker` and writes its
pages of every language through :meth:`Baker.page`. A new kind of page is one more
producer in that list.

Incremental (pages keyed by what they read): a page with a key — battles, ships,
battle lists — is not rendered at all when its key is the previous build's (the file is
kept from the previous build: ``campaign.publish.output``). The key is a digest of what
the page reads: rows of the database (``campaign.publish.rows``), the names and paths it
links to, the language and the templates and code (``_SOURCES``). Adding a battle renders its page,
the list page it lands on, the pages of its campaign and factions and the home page;
the search index re-indexes only the shards whose pages changed.
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

from battles.models import Battle
from battles.visibility import public_reader
from campaign.core.markdown import render_markdown
from campaign.league.models import Campaign
from campaign.publish import battle_pages, feeds, inputs, maps, pages, replays, search
from campaign.publish.output import MARKER, SiteBuildError, Staging, prepare_out_dir
from campaign.publish.paths import assign_names
from campaign.publish.rows import BattleRows, digest, load_rows
from factions.access import visible_fleets
from factions.models import Faction, Fleet, LightUnitGroup, Ship, Squadron
from factions.ssd.canvas import Drawing
from factions.ssd.draw import ship_drawing

__all__ = ["MARKER", "PAGE_PRODUCERS", "Baker", "SiteBuildError", "SiteBuildResult", "site_build"]

Progress = Callable[[Iterable[Any], int, str], Iterable[Any]]

#: Files whose change changes every page's key (templates, report code, styles).
_SOURCES = (
    "templates/site",
    "templates/reports",
    "battles/reports/context.py",
    "battles/reports/turn_log.py",
    "battles/log/battle_map.py",  # the report's map
    "battles/log/map_labels.py",  # where its names go
    "battles/play/board.py",  # the board the map is drawn from
    "battles/visibility.py",  # what the public may not see
    "battles/templatetags",
    "campaign/templatetags",
    "factions/templatetags",
    "campaign/core/csp.py",  # strip_styles on the site's SSDs
    "factions/type_words.py",
    "battles/log/lines.py",
    "battles/log/light.py",
    "battles/log/damage.py",
    "battles/log/rolls.py",
    "campaign/core/stored_text.py",
    "campaign/core/messages.py",
    "campaign/core/markdown.py",
    "factions/ssd/draw.py",
    "factions/ssd/canvas.py",
    "factions/ssd/text.py",
    "campaign/publish",
    "locale",
)


@dataclass
class SiteBuildResult:
    """What a build produced: ``pages`` and ``pdfs`` are paths relative to ``out_dir``
    (every page of the site); ``written`` the files this build wrote (the rest were kept
    from the previous build, untouched); ``search_shards`` the search-index shards it
    (re)built."""

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
    search_shards: list[str] = field(default_factory=list)
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
    PDF of the battle's current version exists (``battles.reports.files.report_render``, once
    per battle version); a failed rendering leaves the battle without a PDF link, never
    fails the build. ``search_index``: run Pagefind over the pages (the shards that
    changed). ``base_url`` (None: ``settings.SITE_BASE_URL``) makes the feed's and
    sitemap's absolute URLs; without one the feed's links are relative and no sitemap is
    written (``campaign.publish.feeds``, a line in ``warnings``). The site is built in the
    tree ``out_dir`` does not serve and swapped in at the end (``output.Staging``); a
    failed build leaves the old one.

    Raises :class:`SiteBuildError` for an unknown campaign slug or language, a base URL
    that is not an absolute http(s) URL, or when ``out_dir`` is a non-empty folder that a
    previous build did not make.
    """
    base_url = feeds.base_url_checked(settings.SITE_BASE_URL if base_url is None else base_url)
    out_dir = Path(out_dir)
    out_dir = out_dir.parent.resolve() / out_dir.name  # not the tree the link points to
    campaigns = list(Campaign.objects.order_by("name"))
    if campaign_slug is not None:
        campaigns = [c for c in campaigns if c.slug == campaign_slug]
        if not campaigns:
            raise SiteBuildError(f"no campaign with slug {campaign_slug!r}")
    langs = _languages(languages)
    prepare_out_dir(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    with _locked(out_dir):
        # Read before the rows the build reads (campaign.publish.inputs).
        sources = _sources_digest()
        options = [campaign_slug, langs, pdfs, search_index, base_url, sources]
        read = inputs.fingerprint(options, pdfs)
        kept = inputs.unchanged(out_dir, read)
        if kept is not None:  # nothing the site shows changed: it stays as it is
            return SiteBuildResult(out_dir=out_dir, **kept)
        staging = Staging(out_dir)
        result = SiteBuildResult(out_dir=out_dir, languages=langs)
        try:
            baker = Baker(staging, result, campaigns, campaign_slug, langs, progress, sources)
            _build(baker, pdfs, search_index, base_url)
            staging.finish({inputs.INPUTS: inputs.inputs_json(read, result)})
        except BaseException:
            staging.abort()
            raise
        return result


@contextmanager
def _locked(out_dir: Path):
    """One build of ``out_dir`` at a time (two refresh tasks would race on the swap)."""
    with open(out_dir.parent / f".{out_dir.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _build(baker: Baker, pdfs: bool, search_index: bool, base_url: str) -> None:
    staging, result = baker.staging, baker.result
    baker.load()
    if pdfs:
        baker.pdfs()
    baker.base_url = base_url

    indexer = None
    if search_index:
        baker.search_input = search.SearchInput(staging)
        indexer = search.Indexer(staging, baker.progress, baker.search_input)
    try:
        for produce in PAGE_PRODUCERS:
            produce(baker)
            if indexer is not None and produce is battle_pages.battles:
                # Every ship and battle page is written and the battle pages' process
                # pool is gone (no fork with a thread running): Pagefind indexes their
                # bundles on the other core while the rest of the site is baked (about a
                # fifth of a 10 000-battle build, on one core before).
                indexer.start(baker.shards, kinds=("battles", "ships"))
        baker.statics()
        if not feeds.write_sitemap(staging, result.pages, base_url):
            result.warnings.append(feeds.NO_BASE_URL_WARNING)
        result.removed = staging.finish_removals(keep=(search.BUNDLE + "/",))
        if indexer is not None:
            shards = indexer.finish(baker.shards)
            result.search_shards = shards
            result.search_indexed = bool(shards)
    finally:
        if indexer is not None:
            indexer.abort()
    result.written = list(staging.written)


class Baker:
    """Loads the public data once (a fixed number of queries) and renders the pages.

    For the page producers: ``langs``; ``campaigns``, ``factions``, ``fleets`` (with
    ``site_path``); ``battles`` (summaries without their long texts, with ``site_path``
    and ``site_pdfs``); ``rows`` (:class:`campaign.publish.rows.BattleRows`);
    ``battles_by_campaign`` / ``battles_by_faction``; ``faction_paths``, ``fleet_paths``,
    ``public_fleet_ids`` and ``public_reader`` (``battles.visibility``); :meth:`page`,
    :meth:`kept`, :meth:`key`, :meth:`md`, :meth:`ship_svg`.
    """

    def __init__(self, staging, result, campaigns, campaign_slug, langs, progress, sources):
        self.staging, self.result, self.campaigns = staging, result, campaigns
        self.campaign_slug, self.langs, self.progress = campaign_slug, langs, progress
        self.sources = sources
        self.built_at = timezone.now()
        self.base_url = settings.SITE_BASE_URL
        #: search-index shard of each page (``search.py``); pages not named: "site"
        self.shards: dict[str, str] = {}
        #: what Pagefind reads of the pages rendered (set when the build indexes them)
        self.search_input: search.SearchInput | None = None
        self._svgs: dict[tuple, str] = {}
        self._drawings: dict[tuple, Drawing] = {}

    # --- data ----------------------------------------------------------------------

    def load(self) -> None:
        campaign_ids = [c.pk for c in self.campaigns]
        self.rows: BattleRows = load_rows(campaign_ids)
        self.battles = self.rows.battles
        battle_ids = [b.pk for b in self.battles]
        faction_q = Q(campaigns__in=campaign_ids) | Q(battle_sides__battle__in=battle_ids)
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
            .select_related("faction", "admiral")
            .prefetch_related(
                Prefetch("squadrons", queryset=Squadron.objects.select_related("commander")),
                Prefetch(
                    "ships",
                    queryset=Ship.objects.select_related(
                        "ship_class__faction", "squadron", "captain"
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
        self.public_reader = public_reader(self.public_fleet_ids)
        self._paths()
        # --- what the other page kinds add to the battles and campaigns (their modules) ---
        replays.prepare(self)  # battle.site_replay
        maps.prepare(self)  # campaign.site_map, battle.site_map

    def _paths(self) -> None:
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
            battle.site_pdfs = {}  # {lang: path of its PDF in that language}
            for side in self.rows.sides.get(battle.pk, ()):
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
        self.campaigns_by_pk = {c.pk: c for c in self.campaigns}
        self.factions_by_pk = {f.pk: f for f in self.factions}
        self.faction_paths = {f.pk: f.site_path for f in self.factions}
        self.fleet_paths = {f.pk: f.site_path for f in self.fleets}
        self.fleet_titles = {f.pk: f.name for f in self.fleets}
        # What every page shows of the site: its languages and campaigns (the header).
        self.nav = digest(
            [self.langs, [(c.pk, c.name, c.site_path) for c in self.campaigns], self.sources]
        )
        self.result.campaigns, self.result.factions = len(self.campaigns), len(self.factions)
        self.result.fleets, self.result.battles = len(self.fleets), len(self.battles)
        self.result.ships = len(self.ship_paths)

    def battle_path(self, battle: Battle) -> str:
        campaign = self.campaign_names.get(battle.campaign_id) or str(battle.campaign_id)
        return f"battles/{campaign}/{self.battle_names[battle.pk]}.html"

    def pdf_path(self, battle: Battle, lang: str) -> str:
        name = battle.site_path.removeprefix("battles/").removesuffix(".html")
        return f"pdf/{lang}/{name}.pdf"

    # --- PDFs ----------------------------------------------------------------------

    def pdfs(self) -> None:
        """Copy each battle's PDF of its current version in each language into the site
        (``battle.site_pdfs[lang]``, linked from that language's pages). The missing or
        stale ones are rendered once per battle version and language, apart from the
        pages, by the Celery workers or a process pool
        (``battles.reports.queue.report_pdfs_ensure``); a failed one leaves its battle without
        a PDF link in that language."""
        # Imported here for start-up speed: it loads WeasyPrint (1.5-2 s of CPU), which
        # a build without PDFs, and every process importing campaign.tasks, never uses.
        from battles.reports.queue import report_pdfs_ensure

        for lang in self.langs:
            paths = report_pdfs_ensure(battles=self.battles, lang=lang)
            for battle in self.progress(self.battles, len(self.battles), f"PDF {lang}"):
                source = paths.get(battle.pk)
                if source is None or not source.is_file():
                    continue  # failed (logged, on its Report): no PDF link in this language
                relative = self.pdf_path(battle, lang)
                stat = source.stat()  # a re-rendered file is a new one: its time and size
                key = digest(["pdf", source.name, stat.st_mtime_ns, stat.st_size])
                if not self.staging.current(relative, key):
                    self.staging.write(relative, source.read_bytes(), key)
                battle.site_pdfs[lang] = relative
                self.result.pdfs.append(relative)

    # --- pages ---------------------------------------------------------------------

    def key(self, lang: str, *parts: Any) -> str:
        """A page key: ``parts`` (what the page reads) with the language, the header and
        the templates and code every page depends on."""
        return self.keys(*parts)[lang]

    def keys(self, *parts: Any) -> dict[str, str]:
        """:meth:`key` in every language of the build: ``parts`` encoded once (the JSON
        of a battle's reads was half of a rebuild's key work, done once per language)."""
        encoded = json.dumps([self.nav, *parts], default=str).encode()
        return {
            lang: hashlib.sha256(lang.encode() + b"\0" + encoded).hexdigest()[:32]
            for lang in self.langs
        }

    def kept(self, lang: str, relative: str, key: str, shard: str = "site") -> bool:
        """True when ``<lang>/<relative>`` was built with ``key`` last time: the page is
        kept as it is and counted in the site."""
        target = f"{lang}/{relative}"
        if self.staging.current(target, key):
            self.result.pages.append(target)
            self.shards[target] = shard
            return True
        return False

    def page(
        self,
        lang: str,
        relative: str,
        template: str,
        context: dict,
        key: str | None = None,
        shard: str = "site",
    ) -> None:
        """Render ``template`` to ``<lang>/<relative>`` in ``lang`` (skipped when ``key``
        is the previous build's: the page reads nothing that changed; without a key the
        page is written only when its bytes changed). ``shard``: its search-index shard."""
        if key is not None and self.kept(lang, relative, key, shard):
            return
        target = f"{lang}/{relative}"
        self.result.pages.append(target)
        self.shards[target] = shard
        root = "../" * relative.count("/")
        context = {
            "built_at": self.built_at,
            "site_campaigns": self.campaigns,
            "site_languages": [code for code in self.langs if code != lang],
            "LANGUAGE_CODE": lang,
            **context,
            "root": root,
            "site_root": root + "../",
            "page_path": relative,
            "lang": lang,
        }
        with translation.override(lang):
            html = render_to_string(template, context).encode("utf-8")
        self.staging.write(target, html, key or hashlib.sha256(html).hexdigest()[:32])
        if self.search_input is not None and shard != search.UNINDEXED:
            self.search_input.add(target, html)

    def md(self, text: str, root: str, section: str) -> Any:
        """People's Markdown of a page ``root`` deep, sanitised (``render_markdown``)."""

        return render_markdown(text, asset_prefix=f"{root}../static/", id_prefix=f"{section}-")

    def ship_svg(self, ship: Ship) -> str:
        """``factions.ssd.draw.ship_svg(ship)`` in the active language without its ``<style>``
        (site pages link css/ssd.css, so a static host's CSP needs no 'unsafe-inline'; the
        PDF draws its own SSDs, style included). Drawn once per ship state a build,
        whatever the languages (``factions.ssd.draw.ship_drawing``), and rendered once per
        language: a damaged ship shows on its page and in each of its battles."""

        state = (
            ship.pk, ship.name, ship.ship_class_id,
            ship.hull_lost, ship.armour_lost, ship.crew_lost,
            tuple(str(s) for s in ship.systems_lost or ()),
        )  # fmt: skip
        key = (translation.get_language(), state)
        svg = self._svgs.get(key)
        if svg is None:
            if len(self._svgs) > 5000:  # bounded: a league may have many ships
                self._svgs.clear()
                self._drawings.clear()
            drawing = self._drawings.get(state)
            if drawing is None:
                drawing = self._drawings[state] = ship_drawing(ship, style=False)
            svg = self._svgs[key] = drawing.render()
        return svg

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


def _producers() -> list[Callable[[Baker], None]]:

    return [
        pages.home,
        pages.campaigns,
        pages.factions,
        pages.fleets,
        pages.ships,
        battle_pages.battles,
        pages.battle_lists,
        pages.feeds_and_search,
        maps.produce,  # <lang>/maps/<campaign>/…: the map per campaign turn
        replays.produce,  # <lang>/replays/<campaign>/<battle>.json
    ]


#: The page producers, in order: each ``producer(baker)`` writes its pages of every
#: language through :meth:`Baker.page`. Append a producer to add a kind of page.
PAGE_PRODUCERS: list[Callable[[Baker], None]] = _producers()
