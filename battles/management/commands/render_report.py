"""``python manage.py render_report BATTLE_ID --format html|pdf --out PATH``."""

from __future__ import annotations

import shutil
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from battles.models import Battle
from battles.reports.files import REPORT_FORMATS, report_render


class Command(BaseCommand):
    help = (
        "Render a battle's after-action report (HTML or PDF) unless the file is current, "
        "and copy it to --out."
    )
    # No system checks: the report reads no URL, and the checks' URL check imports the
    # whole URL configuration (the API's schemas): most of this command's start-up
    # (bench/startup.py). `manage.py check`, `runserver`, `migrate` and the tests run them.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser):
        parser.add_argument("battle_id", type=int, help="id of the battle")
        parser.add_argument("--format", dest="fmt", choices=REPORT_FORMATS, default="pdf")
        parser.add_argument("--out", type=Path, help="where to copy the file (optional)")

    def handle(self, *args, battle_id: int, fmt: str, out: Path | None, **options):
        started = timezone.now()
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
        # report_render returns a current file's row untouched (its auto_now time unchanged).
        done = "rendered" if report.rendered_at >= started else "current, nothing rendered"
        self.stdout.write(f"{report.battle} v{report.version} ({fmt}) {done}: {out or source}")
