"""``python manage.py render_report BATTLE_ID --format html|pdf --out PATH``."""

from __future__ import annotations

import shutil
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from battles.models import Battle
from battles.reports.files import REPORT_FORMATS, report_render


class Command(BaseCommand):
    help = "Render a battle's after-action report (HTML or PDF) and copy it to --out."

    def add_arguments(self, parser):
        parser.add_argument("battle_id", type=int, help="id of the battle")
        parser.add_argument("--format", dest="fmt", choices=REPORT_FORMATS, default="pdf")
        parser.add_argument("--out", type=Path, help="where to copy the file (optional)")

    def handle(self, *args, battle_id: int, fmt: str, out: Path | None, **options):
        try:
            report = report_render(battle_id=battle_id, fmt=fmt)
        except Battle.DoesNotExist as exc:
            raise CommandError(f"no battle with id {battle_id}") from exc
        source = Path(report.file.path)
        if out is not None:
            if out.is_dir():
                out = out / source.name
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, out)
        self.stdout.write(f"{report.battle} v{report.version} ({fmt}): {out or source}")
