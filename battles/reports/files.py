"""Report files: :func:`report_render` renders a battle's after-action report to a file under
``MEDIA_ROOT/reports/<campaign-slug>/<battle-slug>.<fmt>`` and records it in ``Report``,
cached per content digest (never stale). Asking for a rendering once the transaction
commits is ``battles.reports.queue.report_request``.
"""

from __future__ import annotations

import hashlib
import logging
import os
import uuid
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import translation

from battles.models import Battle, Report
from battles.reports import context
from battles.reports.keys import report_pdf_keys

logger = logging.getLogger(__name__)

REPORT_FORMATS = tuple(Report.Format.values)  # ("html", "pdf")


class ReportRenderError(RuntimeError):
    """Rendering a report file failed; the ``Report`` row is marked failed with why."""


def report_file_name(battle: Battle, fmt: str) -> str:
    """The report's path relative to ``MEDIA_ROOT``: ``reports/<campaign>/<battle>.<fmt>``."""
    return f"reports/{battle.campaign.slug}/{battle.slug}.{fmt}"


def _digest(html: str) -> str:
    """SHA-256 (hex, 64 characters) of what a report file is made from: the rendered page,
    the report CSS (a PDF fetches it, the HTML document inlines it) and the WeasyPrint
    version."""
    import weasyprint

    sha = hashlib.sha256(html.encode("utf-8"))
    for name in ("report.css", "fonts.css"):
        css = Path(settings.BASE_DIR) / "static" / "css" / name
        sha.update(b"\0" + (css.read_bytes() if css.exists() else b""))
    sha.update(b"\0" + weasyprint.__version__.encode())
    return sha.hexdigest()


def report_render(*, battle_id: int, fmt: str) -> Report:
    """Render ``battle_id``'s report as ``fmt`` ("html" or "pdf") unless already current.

    The report is a public document: rendered as the anonymous public, in its
    campaign's language (``Campaign.language``). Never stale: a PDF is keyed by what the
    report reads (``report_keys.report_pdf_keys``, five queries, no page rendered), the
    HTML document by its rendered text (:func:`_digest`); when a ``Report`` for this battle
    and format has that digest and its file is on disk, it is returned untouched (no
    re-rendering, the file keeps its mtime). Else the file is
    rendered (battles/reports/context.py; WeasyPrint for the PDF), written to a temporary file and
    moved into place atomically (so two concurrent runs never leave a half-written file),
    then the ``Report`` row is created or updated with the digest and ``Battle.version``.
    Any change a reader could see — an edit in the admin or a service, a side, a
    participant, a ship's damage, a fleet hidden, a template — changes the digest.

    Raises ``ValueError`` for an unknown format or a slug that would leave
    ``MEDIA_ROOT/reports``, ``Battle.DoesNotExist`` for a bad id, and
    :class:`ReportRenderError` when rendering fails (the ``Report`` is then marked
    ``failed`` with the reason, :func:`report_mark_failed`).
    """

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

    def is_current(digest: str) -> bool:
        return bool(
            current is not None
            and current.digest == digest
            and current.file.name == name
            and target.is_file()
        )

    if fmt == "pdf":
        # Keyed by what the report reads: no page is rendered to learn it is current.
        digest = report_pdf_keys([battle.pk])[battle.pk]
        if is_current(digest):
            return current
    try:
        # The page too: a template or data error marks the report failed like WeasyPrint's.
        with translation.override(battle.campaign.language or settings.LANGUAGE_CODE):
            html = (
                context.pdf_page_html(battle)
                if fmt == "pdf"
                else context.render_html_document(battle)
            )
        if fmt == "html":
            digest = _digest(html)
            if is_current(digest):
                return current
        data = context.pdf_from_html(html) if fmt == "pdf" else html.encode("utf-8")
    except Exception as exc:
        # Marked failed with its reason (the battle page says so); the task retries.
        reason = f"{type(exc).__name__}: {exc}"
        report_mark_failed(battle=battle, fmt=fmt, reason=reason)
        raise ReportRenderError(f"battle {battle.pk} ({fmt}): {reason}") from exc
    return report_store(battle=battle, fmt=fmt, data=data, digest=digest)


def write_atomically(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` through a temporary file moved into place, so that two
    concurrent writers never leave a half-written file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{uuid.uuid4().hex}.part")
    partial.write_bytes(data)
    os.replace(partial, target)


def report_store(*, battle: Battle, fmt: str, data: bytes, digest: str) -> Report:
    """Write a rendered report file of ``battle`` (its :func:`report_file_name`) and
    record it as ready for the battle's current version with ``digest``."""
    name = report_file_name(battle, fmt)
    write_atomically(Path(settings.MEDIA_ROOT) / name, data)
    values = {
        "version": battle.version,
        "digest": digest,
        "file": name,
        "status": Report.Status.READY,
        "error": "",
    }
    try:
        with transaction.atomic():
            report, _ = Report.objects.update_or_create(battle=battle, format=fmt, defaults=values)
    except IntegrityError:
        # A concurrent run created the row between our lookup and insert: update it.
        with transaction.atomic():
            report, _ = Report.objects.update_or_create(battle=battle, format=fmt, defaults=values)
    return report


def report_mark_failed(*, battle: Battle, fmt: str, reason: str) -> Report:
    """Record that ``battle``'s ``fmt`` report failed to render, with ``reason`` (cut to
    2 000 characters). A file rendered earlier stays on disk but no longer counts as
    current (the digest is cleared), so no page links to it as if it were."""
    values = {
        "status": Report.Status.FAILED,
        "error": reason[:2000],
        "digest": "",
        "version": battle.version,
    }
    with transaction.atomic():
        report, _ = Report.objects.update_or_create(battle=battle, format=fmt, defaults=values)
    return report


def report_is_current(report: Report | None, battle: Battle) -> bool:
    """True when ``report`` was rendered for ``battle``'s current version and is ready:
    the only PDF a page may link to."""
    return bool(
        report is not None
        and report.status == Report.Status.READY
        and report.file
        and report.version == battle.version
    )
