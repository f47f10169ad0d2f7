"""``python manage.py build_site OUT_DIR [--campaign SLUG]``: bake the public site."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from campaign.publish import SiteBuildError, site_build


class Command(BaseCommand):
    help = "Bake the public campaign site (relative links; works from file://)."

    def add_arguments(self, parser):
        parser.add_argument("out_dir", type=Path, help="output folder (replaced if it exists)")
        parser.add_argument("--campaign", dest="campaign_slug", help="only this campaign")

    def handle(self, *args, out_dir: Path, campaign_slug: str | None, **options):
        try:
            result = site_build(out_dir=out_dir, campaign_slug=campaign_slug)
        except SiteBuildError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"Site baked in {result.out_dir}: {len(result.pages)} pages "
            f"({result.factions} factions, {result.fleets} fleets, {result.battles} battles), "
            f"{len(result.pdfs)} PDFs. Open {result.out_dir / 'index.html'}"
        )
