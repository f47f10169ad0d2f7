"""URL patterns of the league pages (index, campaigns, logging in and out).

Players are not staff, so the admin's login form (staff only) cannot serve them: the
league has its own login page using Django's ``LoginView``.
"""

from django.contrib.auth import views as auth_views
from django.urls import path

from campaign.web import account, exchange
from campaign.web import league as views
from campaign.web.history import campaign_history_page

urlpatterns = [
    path("", views.home, name="home"),
    path("campaigns/<slug:slug>/", views.campaign_detail, name="campaign-detail"),
    path(
        "campaigns/<slug:slug>/export.json",
        exchange.campaign_export_download,
        name="campaign-export",
    ),
    path("campaign-import/", exchange.campaign_import_page, name="campaign-import"),
    path("campaigns/<slug:slug>/rules/", views.campaign_rules, name="campaign-rules"),
    path("campaigns/<slug:slug>/history/", campaign_history_page, name="campaign-history"),
    path("campaigns/<slug:slug>/site/rebuild/", views.site_rebuild, name="site-rebuild"),
    path(
        "login/",
        auth_views.LoginView.as_view(
            template_name="campaign/login.html", redirect_authenticated_user=True
        ),
        name="login",
    ),
    path("account/", account.account, name="account"),
    path("account/password/", account.password_change, name="account-password"),
    path("account/tokens/", account.token_create, name="account-token-create"),
    path("account/tokens/<int:pk>/revoke/", account.token_revoke, name="account-token-revoke"),
    path("logout/", auth_views.LogoutView.as_view(next_page="home"), name="logout"),
]
