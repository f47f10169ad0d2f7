"""Celery tasks of the after-action reports: thin adapters that take ids and call a service.

``render_report`` is idempotent (same battle, same version -> same file, not re-rendered;
see ``battles.reports.files.report_render``), has time limits and retries transient failures
(file system, database) with back-off. Queue it with ``battles.reports.queue.report_request``,
which waits for the transaction to commit.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.db import OperationalError

from battles.models import Battle
from battles.reports.files import ReportRenderError, report_render
from battles.reports.pdfs import report_pdf_ensure

logger = logging.getLogger(__name__)


#: How a render task retries and times out (both report tasks): a lost database or file
#: system is retried with back-off; a render stuck past two minutes is stopped.
_RENDER_OPTIONS = {
    "autoretry_for": (OSError, OperationalError),
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 3,
    "soft_time_limit": 120,
    "time_limit": 180,
    "acks_late": True,
}


@shared_task(bind=True, name="battles.render_report", **_RENDER_OPTIONS)
def render_report(self, battle_id: int, fmt: str) -> dict[str, object]:
    """Render battle ``battle_id``'s report as ``fmt`` ("html" or "pdf").

    Returns ``{"report_id", "battle_id", "format", "version", "file", "status"}`` with
    ``file`` relative to ``MEDIA_ROOT``. An unknown battle or format fails at once (no
    retry). A rendering error (a broken page, WeasyPrint) is recorded on the ``Report``
    (``status = failed`` and the reason, ``report_render``) and retried with back-off on
    a worker; run eagerly (no broker) it is logged and returned as ``status = failed``,
    never raised into the request that asked for it.
    """
    try:
        report = report_render(battle_id=battle_id, fmt=fmt)
    except ReportRenderError as exc:
        if not self.request.is_eager and self.request.retries < self.max_retries:
            raise self.retry(exc=exc, countdown=2 ** (self.request.retries + 1)) from exc
        logger.exception("report of battle %s (%s) failed", battle_id, fmt)
        return {"battle_id": battle_id, "format": fmt, "status": "failed", "error": str(exc)}
    return {
        "report_id": report.pk,
        "battle_id": battle_id,
        "format": report.format,
        "version": report.version,
        "file": report.file.name,
        "status": report.status,
    }


@shared_task(name="battles.render_report_pdf_in", **_RENDER_OPTIONS)
def render_report_pdf_in(battle_id: int, lang: str) -> dict[str, object]:
    """Render battle ``battle_id``'s PDF report in ``lang`` (a language of the settings
    other than its campaign's) unless a current one exists
    (``report_pdf_ensure``, which renders in this process inside a task).

    Returns ``{"battle_id", "lang", "file", "status"}``, ``file`` the absolute path or
    ``None``; ``status`` "ready", "failed" (logged; asked again by the next reader) or
    "gone" (no such battle). Raises ``ValueError`` for a language not in the settings.
    """
    if lang not in dict(settings.LANGUAGES):
        raise ValueError(f"lang {lang!r}: expected one of {', '.join(dict(settings.LANGUAGES))}")
    battle = Battle.objects.select_related("campaign").filter(pk=battle_id).first()
    if battle is None:
        return {"battle_id": battle_id, "lang": lang, "file": None, "status": "gone"}
    path = report_pdf_ensure(battle=battle, lang=lang)
    status = "ready" if path is not None else "failed"
    return {"battle_id": battle_id, "lang": lang, "file": path and str(path), "status": status}
