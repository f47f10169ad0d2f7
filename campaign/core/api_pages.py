"""Lists of the API a page at a time, still answered as a JSON array.

django-ninja's ``@paginate`` with :class:`ArrayPage`: ``?limit=`` rows (default
:data:`DEFAULT_LIMIT`, at most :data:`MAX_LIMIT`) from ``?offset=`` (0 first), the total
in the ``X-Total-Count`` header. The answer keeps the shape it had before lists were cut
into pages (a JSON array of the same objects), so existing clients read it unchanged; a
list longer than ``limit`` is the one thing they must now page through. A limit out of
bounds or a negative offset is 422 naming the parameter (django-ninja's validation);
an offset past the end gives ``[]``.

The view declares ``response: HttpResponse`` (django-ninja's temporal response) so the
header can be set, and returns an ordered queryset: only the page's rows are read. A
``prepare(request, rows)`` given to ``@paginate`` runs on the page's rows (scoping what
each row shows) before they are serialised.

Source: django-ninja's pagination documentation (custom ``PaginationBase``; ``Output``
left unset keeps the operation's response schema).
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Sequence
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest
from django_filters import FilterSet
from ninja import Field, Schema
from ninja.pagination import PaginationBase, paginate

from campaign.core.limits import NUMBER_MAX
from campaign.core.refusals import Kind, Refused

DEFAULT_LIMIT = 100
MAX_LIMIT = 500

#: The header that carries the number of rows of the whole list.
TOTAL_HEADER = "X-Total-Count"


class ArrayPage(PaginationBase):
    """limit/offset over a list answer that stays a JSON array (module docstring)."""

    class Input(Schema):
        limit: int = Field(
            DEFAULT_LIMIT, ge=1, le=MAX_LIMIT, description="rows in the answer (1–500)"
        )
        # Bounded as every stored number: a larger one overflows the database's integer.
        offset: int = Field(0, ge=0, le=NUMBER_MAX, description="rows skipped (0: from the first)")

    # No envelope: the operation keeps its ``list[...]`` response schema.
    Output = None  # type: ignore[assignment]

    def __init__(
        self, *, prepare: Callable[[HttpRequest, list], list] | None = None, **kwargs: Any
    ) -> None:
        self.prepare = prepare
        super().__init__(**kwargs)

    def paginate_queryset(
        self, queryset: Sequence[Any], pagination: Input, request: HttpRequest, **params: Any
    ) -> list[Any]:
        """The page's rows of ``queryset`` (two queries for a queryset: count, rows)."""
        total = self._items_count(queryset)
        response = params.get("response")
        if response is not None:
            response[TOTAL_HEADER] = str(total)
        rows = list(queryset[pagination.offset : pagination.offset + pagination.limit])
        return self.prepare(request, rows) if self.prepare else rows


def array_page(
    prepare: Callable[[HttpRequest, list], list] | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``@paginate(ArrayPage, prepare=prepare)`` for a view of a module written with
    ``from __future__ import annotations``: its annotations are resolved in its own module
    first (django-ninja reads the wrapper's, whose module knows neither ``HttpResponse``
    nor the view's schemas)."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        view.__annotations__ = typing.get_type_hints(view, include_extras=True)
        return paginate(ArrayPage, prepare=prepare)(view)

    return decorate


def filtered(filters: FilterSet) -> QuerySet:
    """The rows ``filters`` (a bound django-filter ``FilterSet``) selects; :class:`Refused`
    (422) naming each bad field otherwise."""
    if not filters.is_valid():
        errors = [(name, " ".join(msgs)) for name, msgs in filters.form.errors.items()]
        raise Refused(
            "; ".join(f"{name}: {msg}" for name, msg in errors), kind=Kind.INVALID, errors=errors
        )
    return filters.qs
