"""Asking for report renderings: after a commit (:func:`report_request`), or many PDFs at
once for the site build (:func:`report_pdfs_ensure`, in a process pool or by the Celery
workers). Above the tasks it queues (``battles.reports.tasks``), which render through
``battles.reports.files`` and ``battles.reports.pdfs``.
"""

from __future__ import annotations

import functools
import logging
import multiprocessing
import time
from collections.abc import Iterable
from pathlib import Path

from celery import current_task
from django.conf import settings
from django.db import transaction

from battles.models import Battle, Report
from battles.reports.files import REPORT_FORMATS
from battles.reports.keys import report_pdf_keys
from battles.reports.pdfs import by_pool, current_pdfs, is_main_language
from battles.reports.tasks import render_report, render_report_pdf_in

logger = logging.getLogger(__name__)


def report_request(*, battle: Battle, formats: Iterable[str] = REPORT_FORMATS) -> None:
    """Queue the ``render_report`` task for each format once the transaction commits.

    Outside a transaction (or with eager Celery) the task runs right away. With a broker,
    a PDF also queues ``render_report_pdf_in`` for each other language of the settings.
    Raises ``ValueError`` for an unknown format.
    """
    formats = tuple(formats)
    for fmt in formats:
        if fmt not in REPORT_FORMATS:
            raise ValueError(f"format {fmt!r}: expected one of {', '.join(REPORT_FORMATS)}")
        transaction.on_commit(functools.partial(_queue, render_report, battle.pk, fmt))
    if "pdf" in formats and not settings.CELERY_TASK_ALWAYS_EAGER:
        # Rendered ahead by the workers: the other languages' PDFs (battles/web/media.py's
        # ``report_pdf_in``). Without a broker they are rendered when first asked for,
        # so that publishing does not wait on one more WeasyPrint run per language.
        main = battle.campaign.language or settings.LANGUAGE_CODE
        for lang in dict(settings.LANGUAGES):
            if lang != main:
                transaction.on_commit(
                    functools.partial(_queue, render_report_pdf_in, battle.pk, lang)
                )


def _queue(task, *args) -> None:
    """Queue ``task`` with ``args``; a broker that cannot be reached (or an eager task
    that failed, already recorded by the task) is logged, never raised: the action that
    asked for the rendering is saved and must not turn into an error page."""
    try:
        task.delay(*args)
    except Exception:
        logger.exception("could not run %s%r", task.name, args)


def report_pdfs_ensure(
    *,
    battles: Iterable[Battle],
    lang: str | None = None,
    workers: int | None = None,
    wait: float = 600.0,
) -> dict[int, Path]:
    """``{battle id: path}`` of a current PDF report of each of ``battles`` in ``lang``
    (None: each one's campaign language), rendering only the missing or stale ones.

    ``workers``: processes for the pool (None: the machine's CPUs; 1 renders here).
    With a Celery broker (``CELERY_BROKER_URL``), campaign-language PDFs are queued to
    the ``render_report`` task and awaited up to ``wait`` seconds. Battles whose
    rendering failed or did not finish are left out. Queries: a fixed number plus, per
    stale battle, those of its report page and its ``Report`` row."""
    battles = [b for b in battles if b.pk is not None]
    keys = report_pdf_keys([b.pk for b in battles], lang=lang)
    found, stale = current_pdfs(battles, keys, lang)
    if not stale:
        return found
    if _in_worker():
        # A task (a Celery worker's site refresh) must not wait on tasks queued behind it
        # on the same worker, and a daemonic process may not start a pool: render here.
        workers = 1
    elif not settings.CELERY_TASK_ALWAYS_EAGER:
        queued = [b for b in stale if is_main_language(b, lang)]
        found |= _by_workers(queued, keys, wait)
        stale = [b for b in stale if not is_main_language(b, lang)]
    found |= by_pool(stale, keys, lang, workers)
    return found


def _in_worker() -> bool:
    """True inside a Celery task or any daemonic process (a prefork worker's child)."""
    return multiprocessing.current_process().daemon or bool(
        current_task and current_task.request.id
    )


def _by_workers(battles: list[Battle], keys: dict[int, str], wait: float) -> dict[int, Path]:
    """Queue ``render_report`` for ``battles`` and wait (polling their ``Report`` rows)
    until each is rendered for its key or ``wait`` seconds have passed."""
    for battle in battles:
        render_report.delay(battle.pk, "pdf")
    pending = {b.pk: b for b in battles}
    found: dict[int, Path] = {}
    deadline = time.monotonic() + wait
    while pending and time.monotonic() < deadline:
        time.sleep(1)
        for report in Report.objects.filter(battle_id__in=list(pending), format="pdf"):
            battle = pending[report.battle_id]
            if report.digest == keys[battle.pk] and report.status == Report.Status.READY:
                found[battle.pk] = Path(settings.MEDIA_ROOT) / report.file.name
                del pending[battle.pk]
    if pending:
        logger.warning("PDFs of battles %s not rendered within %s s", sorted(pending), wait)
    return found
