"""URL patterns of the faction, fleet, ship and ship-class pages."""

from django.urls import path

from factions.web import pages as views

urlpatterns = [
    path("factions/<slug:slug>/", views.faction_detail, name="faction-detail"),
    path("fleets/<slug:slug>/", views.fleet_detail, name="fleet-detail"),
    path("ships/<int:pk>/", views.ship_detail, name="ship-detail"),
    path("classes/<int:pk>/", views.shipclass_detail, name="shipclass-detail"),
]
