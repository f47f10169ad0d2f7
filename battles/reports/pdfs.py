"""PDF reports rendered once per battle version, many at a time: the API the
site builder calls instead of rendering PDFs one after another in its own process.

A PDF is current when it was rendered for the report's key (``report_keys``: what the
report reads, the language, the code); a current PDF is never rendered again.

- In the campaign's language the file is the battle page's
  (``MEDIA_ROOT/reports/<campaign>/<battle>.pdf``, its ``Report`` row holds the key);
- in another language it is ``MEDIA_ROOT/reports/<campaign>/<battle>.<lang>.<key16>.pdf``
  (the key in the name; older keys' files of that battle and language are removed).

Stale PDFs are rendered by the Celery workers when a broker is configured (campaign
language; this process waits for them up to ``wait`` seconds), else by a pool of
processes: this process builds each page (the database is read here only) and the pool
runs WeasyPrint on them (``battles.reports.pdf``). A failed rendering marks the ``Report`` failed
with its reason (campaign language) and leaves that battle out of the answer.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

from django.conf import settings
from django.utils import translation

from battles.models import Battle, Report
from battles.reports import context, pdf_worker
from battles.reports.files import (
    report_file_name,
    report_mark_failed,
    report_store,
    write_atomically,
)
from battles.reports.keys import report_pdf_keys

logger = logging.getLogger(__name__)

#: Pages in flight per worker (bounds the memory of a large build).
_BATCH_PER_WORKER = 4


def _language(battle: Battle, lang: str | None) -> str:
    return lang or battle.campaign.language or settings.LANGUAGE_CODE


def is_main_language(battle: Battle, lang: str | None) -> bool:
    """True when ``lang`` is the campaign's: the file of the ``Report`` row."""
    return _language(battle, lang) == _language(battle, None)


def _other_path(battle: Battle, lang: str, key: str) -> Path:
    name = report_file_name(battle, "pdf").removesuffix(".pdf")
    return Path(settings.MEDIA_ROOT) / f"{name}.{lang}.{key[:16]}.pdf"


def report_pdf_ensure(*, battle: Battle, lang: str | None = None) -> Path | None:
    """The path of ``battle``'s PDF report in ``lang`` (None: its campaign's language)
    for what it reads now, rendered in this process only when none is current; ``None``
    when the rendering failed (the ``Report`` is marked failed with its reason)."""
    keys = report_pdf_keys([battle.pk], lang=lang)
    found, stale = current_pdfs([battle], keys, lang)
    return (found | by_pool(stale, keys, lang, 1)).get(battle.pk)


def report_pdf_current(*, battle: Battle, lang: str | None = None) -> Path | None:
    """The path of ``battle``'s PDF report in ``lang`` (None: its campaign's language)
    when one is current for what it reads now, else ``None``; never renders. Six queries."""
    keys = report_pdf_keys([battle.pk], lang=lang)
    return current_pdfs([battle], keys, lang)[0].get(battle.pk)


def current_pdfs(
    battles: list[Battle], keys: dict[int, str], lang: str | None
) -> tuple[dict[int, Path], list[Battle]]:
    """``({battle id: path} of the current PDFs, [battles without one])``; battles
    without a key (unknown) are in neither."""
    reports = {
        r.battle_id: r for r in Report.objects.filter(battle__in=battles, format=Report.Format.PDF)
    }
    found: dict[int, Path] = {}
    stale: list[Battle] = []
    for battle in battles:
        key = keys.get(battle.pk)
        if key is None:
            continue
        if is_main_language(battle, lang):
            report = reports.get(battle.pk)
            path = Path(settings.MEDIA_ROOT) / report_file_name(battle, "pdf")
            current = report is not None and report.digest == key and report.status == "ready"
            current = current and report.file.name == report_file_name(battle, "pdf")
        else:
            path = _other_path(battle, _language(battle, lang), key)
            current = True
        if current and path.is_file():
            found[battle.pk] = path
        else:
            stale.append(battle)
    return found, stale


def _pages(battles: list[Battle], lang: str | None) -> Iterator[tuple[Battle, str]]:

    for battle in battles:
        with translation.override(_language(battle, lang)):
            yield battle, context.pdf_page_html(battle)


def by_pool(
    battles: list[Battle], keys: dict[int, str], lang: str | None, workers: int | None
) -> dict[int, Path]:
    """Render ``battles``' PDFs: the pages here, WeasyPrint in ``workers`` processes."""

    workers = min(workers or os.cpu_count() or 1, len(battles))
    found: dict[int, Path] = {}

    def store(battle: Battle, data: bytes | None, error: BaseException | None) -> None:
        key = keys[battle.pk]
        if error is not None:
            reason = f"{type(error).__name__}: {error}"
            logger.error("PDF of battle %s failed: %s", battle.pk, reason)
            if is_main_language(battle, lang):
                report_mark_failed(battle=battle, fmt="pdf", reason=reason)
            return
        if is_main_language(battle, lang):
            report = report_store(battle=battle, fmt="pdf", data=data, digest=key)
            found[battle.pk] = Path(settings.MEDIA_ROOT) / report.file.name
            return
        target = _other_path(battle, _language(battle, lang), key)
        write_atomically(target, data)
        for old in target.parent.glob(target.name.rsplit(".", 2)[0] + ".*.pdf"):
            if old != target:
                old.unlink(missing_ok=True)
        found[battle.pk] = target

    if workers <= 1:
        for battle, html in _pages(battles, lang):
            try:
                data = context.pdf_from_html(html)
            except Exception as exc:  # recorded as the report's failure, never raised
                store(battle, None, exc)
            else:
                store(battle, data, None)
        return found
    # Spawned, not forked: a fork would copy this process's Pango and database state.
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=spawn, initializer=pdf_worker.init) as pool:
        # A window of pages in flight: the oldest is stored (waited for) once the window is
        # full, so the next pages are built here while the pool renders the ones before
        # (a batch collected whole left the pool idle while its successor was built).
        window: deque[tuple[Battle, Future]] = deque()
        for battle, html in _pages(battles, lang):
            window.append((battle, pool.submit(pdf_worker.pdf_bytes, html)))
            if len(window) >= workers * _BATCH_PER_WORKER:
                _store_done(window.popleft(), store)
        while window:
            _store_done(window.popleft(), store)
    return found


def _store_done(item: tuple[Battle, Future], store) -> None:
    battle, future = item
    error = future.exception()
    store(battle, None if error else future.result(), error)
