"""URL patterns of the battle pages and the chroniclers' desk."""

from django.urls import path

from battles.web import actions as views_actions
from battles.web import battles as views
from battles.web import desk, exports, media, scoring
from battles.web import play as views_turns

urlpatterns = [
    path("battles/<int:pk>/", views.battle_detail, name="battle-detail"),
    path("campaigns/<slug:slug>/standings/", scoring.standings_page, name="campaign-standings"),
    path("campaigns/<slug:slug>/scoring/", scoring.scoring_rules_page, name="scoring-rules"),
    path("battles/<int:pk>/objectives/", scoring.battle_objectives, name="battle-objectives"),
    path("campaigns/<slug:slug>/standings.csv", exports.standings_csv, name="standings-csv"),
    path("campaigns/<slug:slug>/battles/new/", views_actions.battle_setup, name="battle-setup"),
    path("battles/<int:pk>/resolve/", views_actions.battle_resolve_page, name="battle-resolve"),
    path(
        "battles/<int:pk>/forecast/",
        views_actions.battle_forecast_fragment,
        name="battle-forecast",
    ),
    path("battles/<int:pk>/record/", views_actions.battle_record_page, name="battle-record"),
    path(
        "battles/<int:pk>/record/<int:entry>/<str:decision>/",
        views_actions.record_entry_decide,
        name="battle-record-decide",
    ),
    path("battles/<int:pk>/reopen/", views_actions.battle_reopen_page, name="battle-reopen"),
    path(
        "battles/<int:pk>/report.<str:lang>.pdf", media.report_pdf_in, name="battle-report-pdf-in"
    ),
    path("battles/<int:pk>/report/", desk.report_edit, name="report-edit"),
    path("battles/<int:pk>/report/preview/", desk.report_preview, name="report-preview"),
    path("battles/<int:pk>/report/publish/", desk.report_publish, name="report-publish"),
    path("battles/<int:pk>/report/withdraw/", desk.report_withdraw, name="report-withdraw"),
    path("battles/<int:pk>/turns/", views_turns.battle_turns, name="battle-turns"),
    path(
        "battles/<int:pk>/turns/start/", views_turns.battle_turns_start, name="battle-turns-start"
    ),
    path(
        "battles/<int:pk>/turns/orders/",
        views_turns.battle_turns_orders,
        name="battle-turns-orders",
    ),
    path(
        "battles/<int:pk>/turns/preview/",
        views_turns.battle_turns_preview,
        name="battle-turns-preview",
    ),
    path(
        "battles/<int:pk>/turns/<str:action>/",
        views_turns.battle_turns_control,
        name="battle-turns-control",
    ),
    path("battles/<int:pk>/replay/", views_turns.battle_replay, name="battle-replay"),
]
