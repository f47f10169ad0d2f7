"""URL patterns of the fog of war's pages."""

from django.urls import path

from campaign.fog.web import reveals

urlpatterns = [
    path("campaigns/<slug:slug>/map/reveals/", reveals.reveals_page, name="fog-reveals"),
    path("campaigns/<slug:slug>/map/reveals/new/", reveals.reveal_create, name="fog-reveal-create"),
    path(
        "campaigns/<slug:slug>/map/reveals/<int:pk>/revoke/",
        reveals.reveal_revoke,
        name="fog-reveal-revoke",
    ),
]
