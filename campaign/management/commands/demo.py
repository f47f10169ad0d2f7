"""``python manage.py demo --site DIR``: resolve the battles left for the engine, render every
concluded battle's report, play the sample's first two campaign turns (``campaign.turns.demo``:
repairs ordered at the yards, two fleets sent across the star map, turns 1 and 2 closed, their
meeting's battle drafted), bake the site (recorded as a ``SiteBuild``, like the organisers'
*Rebuild the site*).

Run by ``make demo`` after ``migrate`` and ``load_sample``; its console is in English. A
draft battle in ``resolved`` mode with a stored seed (the sample's Skirmish at Mieska) is
fought first by ``battles.services.battle_resolve`` with that seed, so the demo is the same
every time; a battle already concluded is left as it is. Reports go through the Celery task
``battles.render_report`` (eager in-process by default; a real worker when
``CELERY_BROKER_URL`` is set) to ``MEDIA_ROOT/reports/<campaign>/<battle>.{html,pdf}``.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from battles.models import Battle
from battles.reports.files import REPORT_FORMATS
from battles.reports.tasks import render_report
from battles.services import BattleActionError, battle_resolve
from campaign.core.actors import SYSTEM
from campaign.league import site_builds
from campaign.league.models import Campaign
from campaign.publish import SiteBuildError, site_build
from campaign.turns.demo import sample_second_turn_demo, sample_turn_demo

WORKER_TIMEOUT = 600  # seconds to wait for a real worker's result


class Command(BaseCommand):
    help = (
        "Resolve the draft battles left for the engine (stored seed), render the reports "
        "of all concluded battles (HTML + PDF) and bake the site."
    )

    def add_arguments(self, parser):
        parser.add_argument("--site", type=Path, default=Path("site"), help="site folder")

    def _render(self, battle_id: int, fmt: str) -> dict:
        if settings.CELERY_TASK_ALWAYS_EAGER or settings.CELERY_RESULT_BACKEND:
            return render_report.delay(battle_id, fmt).get(timeout=WORKER_TIMEOUT)
        # A broker but no result backend: we could not wait for the worker, so run here.
        return render_report.apply(args=(battle_id, fmt)).get()

    def _resolve_pending(self) -> None:
        pending = Battle.objects.filter(
            status=Battle.Status.DRAFT, mode=Battle.Mode.RESOLVED, seed__isnull=False
        ).select_related("campaign")
        for battle in pending:
            try:
                done = battle_resolve(battle=battle, seed=battle.seed, user=SYSTEM)
            except BattleActionError as exc:
                raise CommandError(str(exc)) from exc
            self.stdout.write(
                f"  resolved {battle.campaign.slug}/{battle.name} (seed {done.seed}): "
                f"{done.outcome} {done.events.filter(kind='roll').count()} dice logged."
            )

    def handle(self, *args, site: Path, **options):
        # The console speaks one language, English like the command's own lines: the
        # services' messages it prints (a repair refused, an outcome) would otherwise come
        # in the default language (French) between English ones. The reports and the site
        # set their own languages.
        with translation.override("en"):
            self._handle(site)

    def _handle(self, site: Path) -> None:
        self._resolve_pending()
        for campaign in Campaign.objects.filter(slug="sample"):  # repairs, moves, a meeting
            for line in sample_turn_demo(campaign=campaign):
                self.stdout.write(f"  turn: {line}")
            for line in sample_second_turn_demo(campaign=campaign):
                self.stdout.write(f"  turn: {line}")
            for battle in Battle.objects.filter(
                campaign=campaign, status=Battle.Status.DRAFT, system__isnull=False
            ).exclude(campaign_turn__lt=2):
                self.stdout.write(f"  turn: fleets met, battle drafted: {battle.name}")
        battles = list(
            Battle.objects.filter(status=Battle.Status.CONCLUDED)
            .select_related("campaign")
            .order_by("campaign__name", "campaign_turn", "name")
        )
        if not battles:
            self.stdout.write(self.style.WARNING("No concluded battle: run load_sample first?"))
        mode = "eager" if settings.CELERY_TASK_ALWAYS_EAGER else "worker"
        media = Path(settings.MEDIA_ROOT)
        for battle in battles:
            for fmt in REPORT_FORMATS:
                info = self._render(battle.pk, fmt)
                self.stdout.write(
                    f"  report [{mode}] {battle.campaign.slug}/{battle.name} "
                    f"v{info['version']} {fmt}: {media / info['file']}"
                )
        # Recorded like the organisers' *Rebuild the site* (a full build, asked for by no
        # one): the campaign page then shows when the site was last built.
        build = site_builds.build_start(full=True)
        try:
            result = site_build(out_dir=site)
        except SiteBuildError as exc:
            site_builds.build_finish(build, error=str(exc))
            raise CommandError(str(exc)) from exc
        except BaseException as exc:
            # Recorded as failed, as the refresh task does: left running, the campaign page
            # would show a build in progress for ever.
            site_builds.build_finish(build, error=f"{type(exc).__name__}: {exc}")
            raise
        site_builds.build_finish(build, written=len(result.written))
        for warning in result.warnings:  # e.g. no base URL: no sitemap
            self.stderr.write(f"warning: {warning}")
        self.stdout.write(
            self.style.SUCCESS(
                f"Site: {len(result.pages)} pages, {len(result.pdfs)} PDFs in {result.out_dir}"
            )
        )
        self.stdout.write("Where to look:")
        self.stdout.write(f"  open {result.out_dir / 'index.html'}  (works from file://)")
        self.stdout.write(f"  reports in {media / 'reports'}")
        self.stdout.write("  `make run` serves the live pages on http://127.0.0.1:8000")
