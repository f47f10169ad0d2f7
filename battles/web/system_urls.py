"""URL patterns of the other game systems: their helpers and recording their battles."""

from django.urls import path

from battles.web import record_other as views_record_other
from battles.web import systems as views_systems

urlpatterns = [
    path("rules/", views_systems.rules_index, name="rules-index"),
    path("rules/starfinder/tracker/", views_systems.sf_tracker, name="rules-sf-tracker"),
    path("rules/starfinder/boarding/", views_systems.sf_boarding_page, name="rules-sf-boarding"),
    path("rules/swsb/attack/", views_systems.swsb_attack_page, name="rules-swsb-attack"),
    path("rules/epic/", views_systems.epic_page, name="rules-epic"),
    path(
        "campaigns/<slug:slug>/battles/record-other/",
        views_record_other.other_battle_new,
        name="other-battle-new",
    ),
]
