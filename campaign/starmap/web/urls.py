"""URL patterns of the star map pages (included by ``campaign.urls``)."""

from django.urls import path

from campaign.starmap.web import views

urlpatterns = [
    path("campaigns/<slug:slug>/map/", views.map_page, name="starmap"),
    path("campaigns/<slug:slug>/map/moves/", views.move_order, name="starmap-move"),
    path("campaigns/<slug:slug>/map/place/", views.fleet_place, name="starmap-place"),
    path(
        "campaigns/<slug:slug>/map/moves/<int:pk>/cancel/",
        views.move_cancel,
        name="starmap-move-cancel",
    ),
]
