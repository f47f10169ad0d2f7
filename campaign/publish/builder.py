"""Bake the public campaign into a folder of static files.

Plain baking with ``render_to_string`` (no static-export library): every page is rendered
as the anonymous public (``campaign.access`` with ``user=None``), so a hidden fleet, its
ships and its name never reach the output. Links are relative (``../factions/x.html``) so
the folder works from ``file://`` and from any static host.

Layout of ``out_dir``::

    index.html                         campaigns, factions, battles
    campaigns/<slug>.html              battles and standings of a campaign
    factions/<slug>.html               profile, territories, public fleets, classes
    fleets/<slug>.html                 squadrons, ships and their state, light units
    battles/<campaign>/<battle>.html   the after-action report (site/battle.html)
    battles/<campaign>/<battle>.pdf    its PDF (battles.services.report_render)
    static/                            the project's static files (CSS, fonts, images)
    .admiralty-site                    marker: this folder may be replaced by a rebuild
"""

from __future__ import annotations

import shutil
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import Prefetch, Q
from django.template.loader import render_to_string
from django.utils import timezone

from battles.models import Battle, BattleSide, Participant
from campaign.access import visible_fleets
from campaign.models import Campaign
from factions.fleet_totals import fleet_totals
from factions.models import Faction, Fleet, LightUnitGroup, Ship
from turns.repairs import fleet_repairs

from .charts import losses_chart, standings_chart

MARKER = ".admiralty-site"


class SiteBuildError(Exception):
    """The site cannot be built (unknown campaign, unsafe output folder)."""


@dataclass
class SiteBuildResult:
    """What a build wrote: ``pages`` and ``pdfs`` are paths relative to ``out_dir``."""

    out_dir: Path
    pages: list[str] = field(default_factory=list)
    pdfs: list[str] = field(default_factory=list)
    campaigns: int = 0
    factions: int = 0
    fleets: int = 0
    battles: int = 0


def _md(text: str, root: str) -> Any:
    from battles.reports import render_markdown

    return render_markdown(text, asset_prefix=f"{root}static/")


class _Writer:
    """Renders templates into the staging folder and records what it wrote."""

    def __init__(self, staging: Path, result: SiteBuildResult, base: dict[str, Any]):
        self.staging, self.result, self.base = staging, result, base

    def page(self, relative: str, template: str, context: dict[str, Any]) -> None:
        depth = relative.count("/")
        root = "../" * depth
        html = render_to_string(template, {**self.base, **context, "root": root})
        target = _inside(self.staging, relative)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(html, encoding="utf-8")
        self.result.pages.append(relative)


def _inside(root: Path, relative: str) -> Path:
    """``root / relative``, refusing a path that a strange slug would lead out of root."""
    target = root / relative
    if not target.resolve().is_relative_to(root.resolve()):
        raise SiteBuildError(f"{relative!r}: a slug is not a safe file name")
    return target


def _standings(battles: list[Battle], public_fleet_ids: set[int]) -> list[dict[str, Any]]:
    """Per faction: battles fought, won, lost, and units destroyed or captured.

    Only units the public may see count (their fleet in ``public_fleet_ids``, or no fleet
    at all: a station's light units): a hidden fleet's losses are its own secret.
    """
    from battles.reports import unit_fleet_id

    rows: dict[int, dict[str, Any]] = {}
    for battle in battles:
        winners = {s.faction_id for s in battle.sides.all() if s.is_winner}
        if battle.winner_id:
            winners.add(battle.winner_id)
        for side in battle.sides.all():
            row = rows.setdefault(
                side.faction_id,
                {"faction": side.faction, "fought": 0, "won": 0, "lost": 0, "units_lost": 0},
            )
            row["fought"] += 1
            if side.faction_id in winners:
                row["won"] += 1
            elif winners:
                row["lost"] += 1
            row["units_lost"] += sum(
                1
                for p in side.participants.all()
                if p.fate in ("destroyed", "captured")
                and unit_fleet_id(p) in public_fleet_ids | {None}
            ) + sum(1 for u in side.system_units.all() if u.fate in ("destroyed", "captured"))
    return sorted(rows.values(), key=lambda r: (-r["won"], r["lost"], r["faction"].name))


def _prepare_out_dir(out_dir: Path) -> None:
    if out_dir.exists():
        if not out_dir.is_dir():
            raise SiteBuildError(f"{out_dir} exists and is not a folder")
        if any(out_dir.iterdir()) and not (out_dir / MARKER).exists():
            raise SiteBuildError(
                f"{out_dir} is not empty and was not made by build_site ({MARKER} missing);"
                " refusing to replace it"
            )


def site_build(*, out_dir: Path, campaign_slug: str | None = None) -> SiteBuildResult:
    """Bake the public site of every campaign (or of ``campaign_slug``) into ``out_dir``.

    Concluded battles only; fleets from ``visible_fleets(None)``; each battle's PDF is
    rendered (or reused while its content is unchanged) through
    ``battles.services.report_render`` and copied next to its page. The site is built in
    a staging folder and swapped in at the end, so a failed build leaves the old one.

    Raises :class:`SiteBuildError` for an unknown campaign slug, or when ``out_dir`` is a
    non-empty folder that a previous build did not make.
    """
    from battles.reports import report_context
    from battles.services import report_render

    out_dir = Path(out_dir).resolve()
    campaigns = list(Campaign.objects.order_by("name"))
    if campaign_slug is not None:
        campaigns = [c for c in campaigns if c.slug == campaign_slug]
        if not campaigns:
            raise SiteBuildError(f"no campaign with slug {campaign_slug!r}")
    _prepare_out_dir(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}-", dir=out_dir.parent))
    result = SiteBuildResult(out_dir=out_dir)
    try:
        _bake(staging, result, campaigns, campaign_slug, report_context, report_render)
        (staging / MARKER).write_text("Built by `manage.py build_site`; safe to delete.\n")
        if out_dir.exists():
            shutil.rmtree(out_dir)
        staging.rename(out_dir)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return result


def _bake(staging, result, campaigns, campaign_slug, report_context, report_render) -> None:
    campaign_ids = [c.pk for c in campaigns]
    side_qs = BattleSide.objects.select_related("faction", "fleet").prefetch_related(
        Prefetch(
            "participants",
            queryset=Participant.objects.select_related("ship", "light_units__carrier").only(
                "id",
                "side_id",
                "fate",
                "ship__fleet_id",
                "light_units__fleet_id",
                "light_units__carrier__fleet_id",
            ),
        ),
        "system_units",  # other game systems' units (public roster)
    )
    battles = list(
        Battle.objects.filter(campaign_id__in=campaign_ids, status=Battle.Status.CONCLUDED)
        .select_related("campaign", "winner")
        .prefetch_related(Prefetch("sides", queryset=side_qs))
        .order_by("campaign__name", "campaign_turn", "date", "name")
    )
    faction_q = Q(campaigns__in=campaign_ids) | Q(battle_sides__battle__in=battles)
    if campaign_slug is None:
        faction_q = Q()
    factions = list(
        Faction.objects.filter(faction_q)
        .distinct()
        .order_by("name")
        .prefetch_related("territories", "ship_classes")
    )
    fleets = list(
        visible_fleets(None)
        .filter(faction__in=factions)
        .select_related("faction")
        .prefetch_related(
            "squadrons",
            Prefetch("ships", queryset=Ship.objects.select_related("ship_class", "squadron")),
            Prefetch(
                "light_units",
                queryset=LightUnitGroup.objects.select_related("carrier__ship_class"),
            ),
        )
        .order_by("faction__name", "name")
    )
    public_fleet_ids = {f.pk for f in fleets}
    # Every public fleet, not only those of the factions baked: a battle may have a side
    # from a faction outside the campaign.
    all_public_fleet_ids = set(visible_fleets(None).values_list("pk", flat=True))
    battles_by_campaign: dict[int, list[Battle]] = defaultdict(list)
    battles_by_faction: dict[int, list[Battle]] = defaultdict(list)
    for battle in battles:
        battles_by_campaign[battle.campaign_id].append(battle)
        for side in battle.sides.all():
            battles_by_faction[side.faction_id].append(battle)
    fleets_by_faction: dict[int, list[Fleet]] = defaultdict(list)
    for fleet in fleets:
        fleets_by_faction[fleet.faction_id].append(fleet)

    writer = _Writer(
        staging,
        result,
        {"built_at": timezone.now(), "site_campaigns": campaigns, "site_factions": factions},
    )
    writer.page(
        "index.html",
        "site/index.html",
        {
            "campaigns": [{"campaign": c, "battles": battles_by_campaign[c.pk]} for c in campaigns],
            "factions": factions,
            "battles": battles,
            "description_html": None,
        },
    )
    for campaign in campaigns:
        standings = _standings(battles_by_campaign[campaign.pk], all_public_fleet_ids)
        writer.page(
            f"campaigns/{campaign.slug}.html",
            "site/campaign.html",
            {
                "campaign": campaign,
                "description_html": _md(campaign.description, "../"),
                "battles": battles_by_campaign[campaign.pk],
                "standings": standings,
                "standings_chart": standings_chart(standings),
            },
        )
    for faction in factions:
        writer.page(
            f"factions/{faction.slug}.html",
            "site/faction.html",
            {
                "faction": faction,
                "description_html": _md(faction.description, "../"),
                "territories": list(faction.territories.all()),
                "fleets": fleets_by_faction[faction.pk],
                "ship_classes": list(faction.ship_classes.all()),
                "battles": battles_by_faction[faction.pk],
            },
        )
    for fleet in fleets:
        ships = list(fleet.ships.all())
        writer.page(
            f"fleets/{fleet.slug}.html",
            "site/fleet.html",
            {
                "fleet": fleet,
                "description_html": _md(fleet.description, "../"),
                "squadrons": [
                    {"squadron": sq, "ships": [s for s in ships if s.squadron_id == sq.pk]}
                    for sq in fleet.squadrons.all()
                ],
                "unassigned": [s for s in ships if s.squadron_id is None],
                "light_units": list(fleet.light_units.all()),
                "ship_count": len(ships),
                # issue 11: points of the ships afloat; ships in dock and their ETA
                "totals": fleet_totals(ships, list(fleet.light_units.all())),
                "repairs": fleet_repairs(fleet),
            },
        )
    for battle in battles:
        base = f"battles/{battle.campaign.slug}/{battle.slug}"
        report = report_render(battle_id=battle.pk, fmt="pdf")
        pdf_target = _inside(staging, f"{base}.pdf")
        pdf_target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(report.file.path, pdf_target)
        result.pdfs.append(f"{base}.pdf")
        # The published site is a public document: built as the anonymous public.
        context = report_context(battle, user=None, asset_prefix="../../static/")
        writer.page(
            f"{base}.html",
            "site/battle.html",
            {
                **context,
                "pdf_name": f"{battle.slug}.pdf",
                "losses_chart": losses_chart(context["losses"]),
                "public_fleet_ids": public_fleet_ids,
            },
        )
    for folder in settings.STATICFILES_DIRS:
        shutil.copytree(folder, staging / "static", dirs_exist_ok=True)
    result.campaigns, result.factions = len(campaigns), len(factions)
    result.fleets, result.battles = len(fleets), len(battles)
