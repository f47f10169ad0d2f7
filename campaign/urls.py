"""URL configuration: pages, admin and the API."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from battles.web.media import report_file
from campaign.api import api

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("campaign.web.urls")),
    path("", include("campaign.web.member_urls")),  # members, invitations, password reset
    path("", include("factions.web.urls")),
    path("", include("battles.web.urls")),
    path("", include("battles.web.system_urls")),  # other game systems (seeds 001–004)
    path("", include("campaign.turns.web.urls")),
    path("", include("campaign.notify.web")),  # account preferences, a campaign's webhook
    path("", include("campaign.starmap.web.urls")),
    path("", include("campaign.fog.web.urls")),  # the organisers' reveals on the map
    # Report files, with the battle page's access rules, also with DEBUG=0 (battles.web.media).
    path(f"{settings.MEDIA_URL.strip('/')}/<path:name>", report_file, name="media-file"),
]
