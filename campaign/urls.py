"""URL configuration: pages, admin and the API."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from battles.media import report_file
from campaign.api import api

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("campaign.pages")),
    path("", include("campaign.urls_members")),  # members, invitations, password reset
    path("", include("factions.urls")),
    path("", include("battles.urls")),
    path("", include("battles.urls_systems")),  # other game systems (seeds 001–004)
    path("", include("turns.urls")),
    # Report files, with the battle page's access rules, also with DEBUG=0 (battles.media).
    path(f"{settings.MEDIA_URL.strip('/')}/<path:name>", report_file, name="media-file"),
]
