"""Every model of the project's apps is in the exchange table or excluded on purpose:
a new model fails here until it is added to ``campaign/exchange/tables.py``."""

from __future__ import annotations

from django.apps import apps

from campaign.exchange.tables import EXCLUDED, TABLES, is_history_model

PROJECT_APPS = ("campaign", "turns", "factions", "battles")


def test_every_model_is_exported_or_excluded_on_purpose():
    exported = {t.model._meta.label for t in TABLES}
    missing = sorted(
        m._meta.label
        for app in PROJECT_APPS
        for m in apps.get_app_config(app).get_models()
        if not is_history_model(m) and m._meta.label not in exported | set(EXCLUDED)
    )
    assert missing == [], f"add to campaign.exchange.tables (TABLES or EXCLUDED): {missing}"


def test_no_model_is_both_exported_and_excluded():
    assert not {t.model._meta.label for t in TABLES} & set(EXCLUDED)


def test_tables_come_after_the_tables_they_name():
    seen = set()
    for table in TABLES:
        for f in table.fields():
            if f.is_relation and f.related_model._meta.label != "auth.User":
                assert f.related_model in seen, f"{table.name}.{f.name} names a later table"
        seen.add(table.model)
