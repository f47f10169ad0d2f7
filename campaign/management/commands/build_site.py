"""``python manage.py build_site OUT_DIR [--campaign SLUG] [--lang fr,en]``: bake the
public site (``campaign.publish``), with a progress bar on the console."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from campaign.publish import SiteBuildError, site_build


class Command(BaseCommand):
    help = "Bake the public campaign site (one tree per language; works from file://)."
    # The system checks load the URL configuration, which the site never uses: 0.7 s of
    # CPU, 15 % of a rebuild after one new battle in a 10 000-battle league.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser):
        parser.add_argument("out_dir", type=Path, help="output folder (replaced if it exists)")
        parser.add_argument("--campaign", dest="campaign_slug", help="only this campaign")
        parser.add_argument("--lang", default="", help="comma-separated languages (default: fr,en)")
        parser.add_argument(
            "--base-url",
            default=None,
            help="absolute URL where the site is hosted, for the feed and sitemap"
            " (default: SITE_BASE_URL; without one, no sitemap and relative feed links)",
        )
        parser.add_argument("--no-pdfs", action="store_true", help="no PDF copied or rendered")
        parser.add_argument("--no-search", action="store_true", help="no Pagefind index")

    def handle(self, *args, out_dir: Path, campaign_slug: str | None, **options):
        languages = [code.strip() for code in options["lang"].split(",") if code.strip()]

        def progress(items, total, label):
            # On the real stderr (not self.stderr): tqdm redraws its line in place.
            return tqdm(items, total=total, desc=label, unit="", file=sys.stderr, leave=False)

        started = time.perf_counter()
        try:
            result = site_build(
                out_dir=out_dir,
                campaign_slug=campaign_slug,
                languages=languages or None,
                pdfs=not options["no_pdfs"],
                search_index=not options["no_search"],
                base_url=options["base_url"],
                progress=progress,
            )
        except SiteBuildError as exc:
            raise CommandError(str(exc)) from exc
        for warning in result.warnings:
            self.stderr.write(f"warning: {warning}")
        self.stdout.write(
            f"Site baked in {result.out_dir} ({', '.join(result.languages)}): "
            f"{len(result.pages)} pages ({result.factions} factions, {result.fleets} fleets, "
            f"{result.ships} ships, {result.battles} battles), {len(result.pdfs)} PDFs; "
            f"{len(result.written)} files written, {len(result.removed)} removed, "
            f"search {len(result.search_shards)} shards indexed, "
            f"{time.perf_counter() - started:.1f} s. Open {result.out_dir / 'index.html'}"
        )
