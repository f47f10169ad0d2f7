"""Pages of a long list: one page of rows and the links to the others.

Every paginated page and the history page read their ``?page=`` here, so a bad number
behaves the same everywhere: not a whole number (``?page=x``, ``?page=0``) gives the first
page, a number past the last gives the last page (Django's ``Paginator.get_page``) — never
an error page. The query string the links carry keeps the list's filters.

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
    page = Paginator(items, per_page).get_page(request.GET.get(param))
    rest = request.GET.copy()
    rest.pop(param, None)
    query = rest.urlencode()
    return Listing(page=page, query=f"{query}&" if query else "")
