"""URL patterns of the battle pages."""

from django.urls import path

from . import views

urlpatterns = [
    path("battles/<int:pk>/", views.battle_detail, name="battle-detail"),
]
