"""What a refusal must leave as it was: the rows of every table, history tables included."""

from __future__ import annotations

from django.apps import apps
from django.db import models

#: Apps whose rows a test client's log-in writes (``force_login``: a session, an access
#: log of django-axes), not the request under test.
LOGIN_APPS = {"sessions", "axes"}


def row_counts() -> dict[str, int]:
    """{``app_label.Model``: rows} for every installed model but the log-in's
    (``LOGIN_APPS``), django-simple-history's historical models included, so an update
    that wrote history shows. A refusal's test compares the map before and after:
    nothing created, deleted or recorded."""
    return {
        m._meta.label: m._base_manager.count()
        for m in apps.get_models()
        if m._meta.app_label not in LOGIN_APPS
    }


def rows_of(model: type[models.Model], **filters) -> list[dict]:
    """Every field of ``model``'s rows matching ``filters``, by primary key: what an
    update would have changed."""
    return list(model._base_manager.filter(**filters).order_by("pk").values())
