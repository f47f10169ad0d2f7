"""URL configuration: pages, admin and the API."""

from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path

from .api import api

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("campaign.pages")),
    path("", include("factions.urls")),
    path("", include("battles.urls")),
    path("", include("battles.urls_systems")),  # other game systems (seeds 001–004)
    path("", include("turns.urls")),
]

if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
