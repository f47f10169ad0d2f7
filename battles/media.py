"""Rendered report files (``MEDIA_ROOT/reports/…``) served through Django with the battle
page's access rules (issue 9 item 13), in development and in production alike.

``/media/<name>`` answers only for a file that is a ``Report`` of a battle the user may
see (``campaign.access.visible_battles``: a draft's PDF is for its campaign's organisers);
anything else under ``/media/`` is a 404, so nothing else in ``MEDIA_ROOT`` leaks. The
report itself is the public rendering (hidden fleets left out), as the PDF always is.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import FileResponse, Http404, HttpRequest

from campaign import access

from .models import Report

CONTENT_TYPES = {Report.Format.PDF: "application/pdf", Report.Format.HTML: "text/html"}


def report_file(request: HttpRequest, name: str) -> FileResponse:
    """The report file ``name`` (relative to ``MEDIA_ROOT``) if the user may see its battle.

    Raises Http404 for an unknown file, a battle the user may not see, or a file missing
    on disk (not yet rendered again).
    """
    report = (
        Report.objects.filter(
            file=name, battle__in=access.visible_battles(request.user).values("pk")
        )
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
    # A draft's or a hidden-fleet-bearing battle's file must not sit in shared caches.
    response["Cache-Control"] = "private, max-age=0, must-revalidate"
    response["X-Content-Type-Options"] = "nosniff"
    return response
