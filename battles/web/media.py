"""Rendered report files (``MEDIA_ROOT/reports/…``) served through Django with the battle
page's access rules (a hidden battle's report never served), in development and in production alike.

``/media/<name>`` answers only for a file that is a ``Report`` of a battle the user may
see (``battles.access.visible_battles``: a draft's PDF is for its campaign's organisers);
anything else under ``/media/`` is a 404, so nothing else in ``MEDIA_ROOT`` leaks. The
report itself is the public rendering (hidden fleets left out), as the PDF always is; an
HTML report's answer allows its own inline styles by hash (``campaign.core.csp``).

``/battles/<id>/report.<lang>.pdf`` (:func:`report_pdf_in`) is the same PDF in a
language of the settings (the battle page links it for a reader of another language than
the campaign's), with the same access rule and headers, rendered when first asked for.
"""

from __future__ import annotations

import logging
from pathlib import Path

from django.conf import settings
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from battles.access import visible_battles
from battles.models import Report
from battles.reports.pdfs import report_pdf_current, report_pdf_ensure
from battles.reports.tasks import render_report_pdf_in
from campaign.core.csp import style_hashes

logger = logging.getLogger(__name__)

CONTENT_TYPES = {Report.Format.PDF: "application/pdf", Report.Format.HTML: "text/html"}


def report_file(request: HttpRequest, name: str) -> FileResponse:
    """The report file ``name`` (relative to ``MEDIA_ROOT``) if the user may see its battle.

    Raises Http404 for an unknown file, a battle the user may not see, or a file missing
    on disk (not yet rendered again).
    """
    report = (
        Report.objects.filter(file=name, battle__in=visible_battles(request.user).values("pk"))
        .only("file", "format")
        .first()
    )
    if report is None:
        raise Http404("no such report")
    root = Path(settings.MEDIA_ROOT).resolve()
    path = (root / report.file.name).resolve()
    if not path.is_relative_to(root) or not path.is_file():
        raise Http404("report not rendered")
    response = FileResponse(
        path.open("rb"), content_type=CONTENT_TYPES.get(report.format, "application/octet-stream")
    )
    if report.format == Report.Format.HTML:
        # The file's own <style> elements (its stylesheet, the map's and the diagrams'
        # SVG) were rendered without this request's nonce: the policy allows their hashes.
        text = path.read_text(encoding="utf-8", errors="replace")
        response._csp_update = {"style-src": style_hashes(text)}  # type: ignore[attr-defined]
    return _private(response)


def _private(response: HttpResponse) -> HttpResponse:
    # A draft's or a hidden-fleet-bearing battle's file must not sit in shared caches.
    response["Cache-Control"] = "private, max-age=0, must-revalidate"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_safe
def report_pdf_in(request: HttpRequest, pk: int, lang: str) -> HttpResponse:
    """Battle ``pk``'s PDF report in ``lang`` (a code of ``settings.LANGUAGES``) if the
    user may see the battle (``battles.access.visible_battles``), else a 404.

    A current file is served at once. Otherwise it is rendered: queued to the workers
    (``render_report_pdf_in``) when a broker is configured, else here
    (``report_pdf_ensure``); until a file exists, or when rendering failed, the answer is
    a 503 page saying so and that it will be tried again (``Retry-After``), never a 500.
    """
    if lang not in dict(settings.LANGUAGES):
        raise Http404("no such language")
    battle = get_object_or_404(
        visible_battles(request.user).select_related("campaign", "winner"), pk=pk
    )
    path, failed = None, False
    try:
        path = report_pdf_current(battle=battle, lang=lang)
        if path is None and not settings.CELERY_TASK_ALWAYS_EAGER:
            render_report_pdf_in.delay(battle.pk, lang)
        elif path is None:
            path = report_pdf_ensure(battle=battle, lang=lang)
            failed = path is None
    except Exception:  # a broker down, a broken page: the reader is told, never a 500
        logger.exception("PDF of battle %s in %s", battle.pk, lang)
        path, failed = None, True
    if path is None or not path.is_file():
        response = render(
            request,
            "battles/report_pdf_pending.html",
            {"battle": battle, "campaign": battle.campaign, "failed": failed},
            status=503,
        )
        response["Retry-After"] = "30"
        return _private(response)
    return _private(FileResponse(path.open("rb"), content_type="application/pdf"))
