"""``manage.py export_campaign`` and ``import_campaign``: what they write and print."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from campaign.league.models import Campaign
from tests.campaign.exchange.conftest import empty_instance

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_export_then_import_on_an_empty_instance(turn_closed, tmp_path, capsys):
    out = tmp_path / "sample.json"
    call_command("export_campaign", "sample", "--out", str(out))
    assert capsys.readouterr().out == (
        f"Campaign 'sample' written to {out} (4 factions, 4 fleets, 42 ships, 2 battles, "
        "644 events, 2 turns, 15 ledger).\n"
    )
    assert json.loads(out.read_text())["campaign"]["slug"] == "sample"
    empty_instance()
    call_command("import_campaign", str(out))
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("Campaign 'sample' imported: ")
    assert printed[0].endswith("rows (4 factions, 42 ships, 2 battles, 644 events).")
    assert printed[1] == (
        "Accounts created without a usable password (set one in the admin, or use "
        "Forgotten password? once they have an e-mail address): chronicler, norge_player, "
        "organiser, qatzrin_player"
    )
    again = tmp_path / "again.json"
    call_command("export_campaign", "sample", "--out", str(again))
    assert again.read_text() == out.read_text()


def test_the_commands_refuse_clearly(sample, tmp_path):
    with pytest.raises(CommandError, match="no campaign with the slug 'nope'"):
        call_command("export_campaign", "nope", "--out", str(tmp_path / "x.json"))
    out = tmp_path / "sample.json"
    call_command("export_campaign", "sample", "--out", str(out))
    with pytest.raises(CommandError) as caught:
        call_command("import_campaign", str(out))  # the campaign is here already
    lines = str(caught.value).splitlines()
    assert lines[0] == "already here: campaign.slug: a campaign 'sample' exists already"
    assert "  factions[0].slug: 'kongeriket-norge' exists already on this instance" in lines
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "admiralty-campaign",\n "version": }')
    with pytest.raises(CommandError, match=r"bad.json: not JSON \(line 2: Expecting value\)"):
        call_command("import_campaign", str(bad))
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_campaign", str(tmp_path / "missing.json"))
    assert Campaign.objects.count() == 2
