"""``python manage.py export_campaign SLUG --out FILE``: the whole campaign as one JSON
document (``campaign.exchange``), for ``import_campaign`` on another instance.

Acts as the system actor (staff at the console). The file holds hidden fleets, secret notes
and every side's orders: keep it as private as the database.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from campaign.core.actors import SYSTEM
from campaign.core.refusals import Refused
from campaign.exchange.export import campaign_export, document_dumps
from campaign.league.models import Campaign


class Command(BaseCommand):
    help = "Write a whole campaign as one JSON document (import it with import_campaign)."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the campaign's slug")
        parser.add_argument("--out", required=True, type=Path, help="file to write ('-': stdout)")

    def handle(self, *args, slug: str, out: Path, **options):
        campaign = Campaign.objects.filter(slug=slug).first()
        if campaign is None:
            raise CommandError(f"no campaign with the slug {slug!r}")
        try:
            document = campaign_export(campaign=campaign, user=SYSTEM)
        except Refused as exc:
            raise CommandError(str(exc)) from exc
        text = document_dumps(document)
        if str(out) == "-":
            self.stdout.write(text)
            return
        out.write_text(text + "\n", encoding="utf-8")
        counts = ", ".join(
            f"{len(document[name])} {name.replace('_', ' ')}"
            for name in ("factions", "fleets", "ships", "battles", "events", "turns", "ledger")
        )
        self.stdout.write(self.style.SUCCESS(f"Campaign '{slug}' written to {out} ({counts})."))
