"""URL patterns of the battle pages."""

from django.urls import path

from . import views, views_turns

urlpatterns = [
    path("battles/<int:pk>/", views.battle_detail, name="battle-detail"),
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
