"""URL patterns of the battle pages and the chroniclers' desk."""

from django.urls import path

from . import desk, views

urlpatterns = [
    path("battles/<int:pk>/", views.battle_detail, name="battle-detail"),
    path("battles/<int:pk>/report/", desk.report_edit, name="report-edit"),
    path("battles/<int:pk>/report/preview/", desk.report_preview, name="report-preview"),
    path("battles/<int:pk>/report/publish/", desk.report_publish, name="report-publish"),
    path("battles/<int:pk>/report/withdraw/", desk.report_withdraw, name="report-withdraw"),
]
