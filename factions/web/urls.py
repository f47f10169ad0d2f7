"""URL patterns of the faction, fleet, ship, ship-class and commander pages."""

from django.urls import path

from factions.web import exports, roster
from factions.web import pages as views
from factions.web.commanders import commander_detail

urlpatterns = [
    path("factions/<slug:slug>/", views.faction_detail, name="faction-detail"),
    path("fleets/<slug:slug>/", views.fleet_detail, name="fleet-detail"),
    path("fleets/<slug:slug>/roster.pdf", roster.fleet_roster_pdf, name="fleet-roster-pdf"),
    path("fleets/<slug:slug>/ships.csv", exports.fleet_ships_csv, name="fleet-ships-csv"),
    path(
        "campaigns/<slug:slug>/fleets.csv", exports.campaign_fleets_csv, name="campaign-fleets-csv"
    ),
    path("campaigns/<slug:slug>/ships.csv", exports.campaign_ships_csv, name="campaign-ships-csv"),
    path("ships/<int:pk>/", views.ship_detail, name="ship-detail"),
    path("classes/<int:pk>/", views.shipclass_detail, name="shipclass-detail"),
    path("commanders/<int:pk>/", commander_detail, name="commander-detail"),
]
