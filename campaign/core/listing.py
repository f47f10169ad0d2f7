"""Pages of a long list: one page of rows and the links to the others.

Every paginated page and the history page read their ``?page=`` here, so a bad number
behaves the same everywhere: anything but a whole number from 1 (``?page=x``, ``?page=0``,
``?page=-4``) gives the first page, a number past the last gives the last page (Django's
``Paginator.get_page``) — never an error page. The query string the links carry keeps
the list's filters.

Source: Django's pagination documentation (``Paginator.get_page``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.http import HttpRequest

#: Rows on a page of the pages' lists (the API has its own ``limit``).
PER_PAGE = 50


@dataclass
class Listing:
    """One page of a list: ``page`` (Django's :class:`Page`: ``object_list``, ``number``,
    ``paginator.count`` / ``num_pages``) and ``query`` — the request's query string
    without ``page``, ending in ``&`` when not empty, for the page links
    (``?{{ query }}page=3``)."""

    page: Page
    query: str

    @property
    def rows(self) -> Sequence[Any]:
        return self.page.object_list


def listing(
    request: HttpRequest, items: Sequence[Any], *, per_page: int = PER_PAGE, param: str = "page"
) -> Listing:
    """The page ``request.GET[param]`` of ``items`` (a queryset, ordered, or a list).

    Reads two queries for a queryset whatever its size (the count, then the page's rows).
    A missing or bad page number gives page 1; beyond the last, the last page."""
    raw = request.GET.get(param, "")
    # Django's get_page sends 0 and negatives to the *last* page: they are not pages.
    # A number too long to be a page is past the last one (and kept out of int()'s limit).
    number = 1
    if raw.isascii() and raw.isdigit():
        number = max(1, int(raw)) if len(raw) <= 18 else 10**18
    page = Paginator(items, per_page).get_page(number)
    rest = request.GET.copy()
    rest.pop(param, None)
    query = rest.urlencode()
    return Listing(page=page, query=f"{query}&" if query else "")
