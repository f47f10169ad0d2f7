"""URL patterns of the league pages (index and campaigns)."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("campaigns/<slug:slug>/", views.campaign_detail, name="campaign-detail"),
]
