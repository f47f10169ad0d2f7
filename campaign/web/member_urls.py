"""URL patterns of the members page, invitation links and password resets (Django's
``PasswordResetView`` family with the league's templates, the request limited per address
and client: ``campaign.web.password_reset``)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from campaign.web import members as views
from campaign.web.password_reset import ThrottledPasswordReset

urlpatterns = [
    path("campaigns/<slug:slug>/members/", views.members_page, name="campaign-members"),
    path(
        "campaigns/<slug:slug>/members/history/",
        views.members_history,
        name="campaign-members-history",
    ),
    path("campaigns/<slug:slug>/members/add/", views.member_add, name="campaign-member-add"),
    path(
        "campaigns/<slug:slug>/members/<int:pk>/change/",
        views.member_change,
        name="campaign-member-change",
    ),
    path(
        "campaigns/<slug:slug>/members/<int:pk>/remove/",
        views.member_remove,
        name="campaign-member-remove",
    ),
    path(
        "campaigns/<slug:slug>/invitations/",
        views.invitation_create,
        name="campaign-invitation-create",
    ),
    path(
        "campaigns/<slug:slug>/invitations/<int:pk>/revoke/",
        views.invitation_revoke,
        name="campaign-invitation-revoke",
    ),
    path("invitations/<str:token>/", views.invitation, name="invitation"),
    path(
        "invitations/<str:token>/confirm/<str:code>/",
        views.invitation_confirm,
        name="invitation-confirm",
    ),
    path("password-reset/", ThrottledPasswordReset.as_view(), name="password_reset"),
    path(
        "password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password-reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password-reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
