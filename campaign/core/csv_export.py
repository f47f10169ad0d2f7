"""CSV downloads: rows written with the ``csv`` module, safe to open in a spreadsheet.

A cell a spreadsheet would read as a formula (starting with ``=``, ``+``, ``-``, ``@``, a
tab or a carriage return) is written with a leading ``'`` so it shows as text: a ship or
fleet name is a player's own words (OWASP, *CSV Injection*). Numbers are written as
numbers, so a negative ledger amount stays ``-5``.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence

from django.http import HttpResponse

#: What makes a spreadsheet read a cell as a formula (OWASP, *CSV Injection*).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """``value`` as written to a cell: None as empty, text starting like a formula
    prefixed with ``'``, numbers unchanged."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return value
    text = str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def csv_response(
    filename: str, header: Sequence[str], rows: Iterable[Sequence[object]]
) -> HttpResponse:
    """An attachment ``filename`` (UTF-8 with a byte-order mark, so spreadsheets read the
    accents) of ``header`` then ``rows``, every cell through :func:`safe_cell`."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")
    writer = csv.writer(response)
    writer.writerow([safe_cell(h) for h in header])
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return response
