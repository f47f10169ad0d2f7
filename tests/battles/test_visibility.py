"""Every reader of a battle hides what ``battles.visibility`` says: the report, the turn
board, the site's replay and rows, and the battles API, for every kind of viewer."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from battles.models import Battle, Participant
from battles.play.board import Viewer
from battles.play.context import battle_viewer, board_for
from battles.reports.context import report_context
from battles.services import battle_resolve
from battles.visibility import (
    battle_units,
    hidden_participants,
    hidden_refs,
    may_read_draft,
    public_reader,
    reader_for,
)
from campaign.core.actors import SYSTEM
from campaign.league.models import Membership
from campaign.publish.replays import public_viewer, replay_json
from campaign.publish.rows import load_rows
from factions.access import visible_fleets
from factions.models import Fleet, LightUnitGroup, Territory
from tests.battles.battle_fixtures import draft_skirmish

VIEWERS = [None, "outsider", "chronicler", "norge_player", "qatzrin_player", "phalon_player",
           "organiser", "staff"]  # fmt: skip
SECRET = "The Phalon lurked behind the moon."


@pytest.fixture
def fought(cast, rival, settings, tmp_path, django_user_model):
    """The skirmish resolved, then the Phalon fleet hidden (its ships, its fighter group
    Nith), a fleetless group carried by a Phalon ship (hidden with its carrier), a
    Qatzrin station's group (public), and the report a draft with a secret narrative."""
    settings.MEDIA_ROOT = tmp_path / "media"
    battle = draft_skirmish(cast.campaign)
    battle_resolve(user=SYSTEM, battle=battle, seed=11, max_turns=6)
    phalon_side = battle.sides.get(faction__slug="phalon")
    carrier = phalon_side.participants.exclude(ship=None).first().ship
    carried = LightUnitGroup.objects.create(
        name="Carried Kites", kind="fighter", faction=phalon_side.faction, carrier=carrier, size=6
    )
    Participant.objects.create(side=phalon_side, light_units=carried)
    territory = Territory.objects.create(faction=cast.qatzrin, name="Ha'Ir", slug="ha-ir")
    based = LightUnitGroup.objects.create(
        name="Station Wasps", kind="fighter", faction=cast.qatzrin, territory=territory, size=6
    )
    Participant.objects.create(side=battle.sides.get(faction__slug="qatzrin"), light_units=based)
    Fleet.objects.filter(pk=carrier.fleet_id).update(hidden=True)
    Battle.objects.filter(pk=battle.pk).update(
        report_state=Battle.ReportState.DRAFT, narrative=SECRET
    )
    phalon_player = django_user_model.objects.create_user("phalon_player", password="pw")
    Membership.objects.create(
        campaign=cast.campaign, user=phalon_player, role="player", faction=phalon_side.faction
    )
    users = {name: getattr(cast, name, None) for name in VIEWERS if name}
    users.update(phalon_player=phalon_player, staff=rival.staff)
    return Battle.objects.get(pk=battle.pk), users


def _participants(battle):
    return list(
        Participant.objects.filter(side__battle=battle)
        .select_related("ship", "light_units__carrier")
        .order_by("pk")
    )


@pytest.mark.parametrize("who", VIEWERS)
def test_every_reader_hides_what_the_visibility_module_says(fought, who):
    battle, users = fought
    user = users.get(who) if who else None
    reader = reader_for(user)
    everyone = _participants(battle)
    hidden = {p.pk for p in hidden_participants(everyone, reader)}
    refs = hidden_refs(everyone, reader)
    draft = may_read_draft(battle, reader)
    # The fixture's secrets, as the module tells them.
    phalon = [p for p in everyone if p.side.faction.slug == "phalon"]
    sees_phalon = who in ("phalon_player", "organiser", "staff")
    assert hidden == (set() if sees_phalon else {p.pk for p in phalon})
    assert len(refs) == (0 if sees_phalon else 5)  # 3 ships, Nith, the carried group
    assert draft is (who in ("chronicler", "organiser", "staff"))

    # The report (page, PDF and site: one context).
    context = report_context(battle, user=user)
    shown = {r["participant"].pk for s in context["sides"] for r in s["participants"]}
    assert shown == {p.pk for p in everyone} - hidden
    assert sum(s["unidentified"] for s in context["sides"]) == len(hidden)
    assert (SECRET in context["narrative_html"]) is draft

    # The battles API.
    client = Client()
    if user is not None:
        client.force_login(user)
    detail = client.get(f"/api/battles/{battle.pk}").json()
    listed = {p["id"] for side in detail["sides"] for p in side["participants"]}
    assert listed == {p.pk for p in everyone} - hidden
    assert (detail["narrative"] == SECRET) is draft

    # The turn board and the app's replay.
    viewer = battle_viewer(battle, user)
    board = board_for(battle, viewer)
    drawn = {m["id"].split(".")[0] for frame in board["frames"] for m in frame}
    assert drawn and not drawn & refs
    if viewer.mode == "public":
        assert viewer.hidden == refs
        assert not any(f'"{ref}"' in json.dumps(board) for ref in refs)
    else:  # organisers and staff see all; a side's player, their sensors
        assert viewer.mode == ("all" if sees_phalon and who != "phalon_player" else "side")


def test_the_site_hides_what_the_module_hides_from_the_public(fought):
    battle, _users = fought
    public_ids = set(visible_fleets(None).values_list("pk", flat=True))
    public = public_reader(public_ids)
    assert public == reader_for(None)
    everyone = _participants(battle)
    hidden = {p.pk for p in hidden_participants(everyone, public)}
    refs = hidden_refs(everyone, public)
    assert hidden and refs
    assert hidden_refs(battle_units([battle.pk])[battle.pk], public) == refs

    # The baked replay.
    viewer = public_viewer(battle, public_ids)
    assert viewer == Viewer("public", hidden=refs) == battle_viewer(battle, None)
    text = replay_json(battle, battle.events.order_by("sequence"), viewer).decode()
    assert not any(f'"{ref}"' in text for ref in refs)

    # The rows a page key is built from: a unit's last value says whether it is shown.
    state = load_rows([battle.campaign_id]).battle_state(battle.pk, public)
    units = {unit[1]: unit[-1] for unit in state[1]}
    assert units == {p.pk: p.pk not in hidden for p in everyone}
    sides = {side[1]: side[3] for side in state[0]}
    assert sides == {battle.sides.get(faction__slug="qatzrin").faction_id: True,
                     battle.sides.get(faction__slug="phalon").faction_id: False}  # fmt: skip
