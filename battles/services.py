"""Battle services: writes that span models (STYLE.md: ``<noun>_<verb>``, keyword-only).

Reports: :func:`report_render` renders a battle's after-action report to a file under
``MEDIA_ROOT/reports/<campaign-slug>/<battle-slug>.<fmt>`` and records it in ``Report``,
cached per ``Battle.version``; :func:`report_request` queues the Celery task once the
current transaction commits.
"""

from __future__ import annotations

import functools
import os
import uuid
from collections.abc import Iterable
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction

from .models import Battle, Report

REPORT_FORMATS = tuple(Report.Format.values)  # ("html", "pdf")


def report_file_name(battle: Battle, fmt: str) -> str:
    """The report's path relative to ``MEDIA_ROOT``: ``reports/<campaign>/<battle>.<fmt>``."""
    return f"reports/{battle.campaign.slug}/{battle.slug}.{fmt}"


def _renderer_mtime() -> float:
    """Newest modification time of what shapes a report (templates, CSS, reports.py).

    A report file older than this was made by an older renderer and is rendered again
    even at the same battle version (e.g. after an upgrade changed the layout).
    """
    base = Path(settings.BASE_DIR)
    sources = [
        Path(__file__).with_name("reports.py"),
        *(base / "templates" / "reports").glob("*.html"),
        base / "static" / "css" / "report.css",
    ]
    return max((p.stat().st_mtime for p in sources if p.exists()), default=0.0)


def report_render(*, battle_id: int, fmt: str) -> Report:
    """Render ``battle_id``'s report as ``fmt`` ("html" or "pdf") unless already current.

    Idempotent: when a ``Report`` for this battle and format exists at the battle's current
    ``version`` and its file is on disk (and newer than the report templates and CSS), it
    is returned untouched (no re-rendering). Else the
    report is rendered (battles/reports.py), written to a temporary file and moved into
    place atomically (so two concurrent runs never leave a half-written file), then the
    ``Report`` row is created or updated.

    Raises ``ValueError`` for an unknown format or a slug that would leave
    ``MEDIA_ROOT/reports``, and ``Battle.DoesNotExist`` for a bad id.
    """
    from .reports import render_html_document, render_pdf

    if fmt not in REPORT_FORMATS:
        raise ValueError(f"format {fmt!r}: expected one of {', '.join(REPORT_FORMATS)}")
    battle = Battle.objects.select_related("campaign", "winner").get(pk=battle_id)
    name = report_file_name(battle, fmt)
    reports_root = (Path(settings.MEDIA_ROOT) / "reports").resolve()
    target = Path(settings.MEDIA_ROOT) / name
    if not target.resolve().is_relative_to(reports_root):
        # Slugs are not validated on every write path (loaders, admin edits via SQL…).
        raise ValueError(f"battle {battle.pk}: slug {battle.slug!r} is not a safe file name")
    current = Report.objects.filter(battle=battle, format=fmt).first()
    if (
        current is not None
        and current.version == battle.version
        and current.file.name == name
        and target.is_file()
        and target.stat().st_mtime >= _renderer_mtime()
    ):
        return current

    data = render_pdf(battle) if fmt == "pdf" else render_html_document(battle).encode("utf-8")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{uuid.uuid4().hex}.part")
    partial.write_bytes(data)
    os.replace(partial, target)

    values = {"version": battle.version, "file": name}
    try:
        with transaction.atomic():
            report, _ = Report.objects.update_or_create(battle=battle, format=fmt, defaults=values)
    except IntegrityError:
        # A concurrent run created the row between our lookup and insert: update it.
        with transaction.atomic():
            report, _ = Report.objects.update_or_create(battle=battle, format=fmt, defaults=values)
    return report


def report_request(*, battle: Battle, formats: Iterable[str] = REPORT_FORMATS) -> None:
    """Queue the ``render_report`` task for each format once the transaction commits.

    Outside a transaction (or with eager Celery) the task runs right away.
    Raises ``ValueError`` for an unknown format.
    """
    from .tasks import render_report

    for fmt in formats:
        if fmt not in REPORT_FORMATS:
            raise ValueError(f"format {fmt!r}: expected one of {', '.join(REPORT_FORMATS)}")
        transaction.on_commit(functools.partial(render_report.delay, battle.pk, fmt))
