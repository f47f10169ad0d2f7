"""URL patterns of the campaign-turn pages (included by ``campaign.urls``)."""

from django.urls import path

from campaign.turns.web import exports
from campaign.turns.web import moves as views_moves
from campaign.turns.web import turn as views

urlpatterns = [
    path("campaigns/<slug:slug>/turn/", views.turn_page, name="turn-page"),
    path("campaigns/<slug:slug>/ledger.csv", exports.ledger_csv, name="ledger-csv"),
    path("campaigns/<slug:slug>/turn/open/", views.turn_open, name="turn-open"),
    path("campaigns/<slug:slug>/turn/close/", views.turn_close, name="turn-close"),
    path("campaigns/<slug:slug>/turn/deadline/", views.turn_deadline, name="turn-deadline"),
    path("campaigns/<slug:slug>/turn/reopen/", views.turn_reopen, name="turn-reopen"),
    path("campaigns/<slug:slug>/treasury/adjust/", views.treasury_adjust, name="treasury-adjust"),
    path("campaigns/<slug:slug>/ships/<int:pk>/repair/", views.repair_page, name="repair-order"),
    path(
        "campaigns/<slug:slug>/repairs/<int:pk>/cancel/", views.repair_cancel, name="repair-cancel"
    ),
    path(
        "campaigns/<slug:slug>/constructions/<int:pk>/cancel/",
        views.construction_cancel,
        name="construction-cancel",
    ),
    path("campaigns/<slug:slug>/moves/", views_moves.fleet_move, name="fleet-move"),
    path(
        "campaigns/<slug:slug>/moves/<int:pk>/cancel/",
        views_moves.fleet_move_cancel,
        name="fleet-move-cancel",
    ),
    path("campaigns/<slug:slug>/build/", views.build_page, name="build-order"),
]
