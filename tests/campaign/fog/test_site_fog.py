"""A baked site of a campaign full of hidden fleets — on the star map, in sensor reach of
a rival, revealed to it, recorded in its sightings — shows none of them: not on the maps
per turn, not in the search index, nowhere; the public fleets are there."""

from django.test import override_settings

from campaign.fog import reveals
from campaign.fog.knowledge import contact_label
from campaign.fog.models import Sighting
from campaign.publish import site_build
from campaign.starmap.models import FleetPosition
from campaign.turns.closing import campaign_turn_close, campaign_turn_open
from factions.models import Fleet, Ship
from tests.campaign.publish.test_publish import all_text

GHOSTS = 12


def test_no_hidden_fleet_reaches_the_site(starmap, tmp_path):
    m = starmap
    # The fixture's "Shadow" is too common a word (CSS box-shadow): a name found nowhere else.
    Fleet.objects.filter(pk=m.shadow.pk).update(name="Nocturne Veil", slug="nocturne-veil")
    cls = m.shadow.ships.get().ship_class
    systems = [m.deneb, m.vega, m.sol, m.rigel]
    for i in range(GHOSTS):
        fleet = Fleet.objects.create(
            faction=m.qatzrin, name=f"Ghost Wing {i}", slug=f"ghost-wing-{i}", hidden=True
        )
        Ship.objects.create(fleet=fleet, ship_class=cls, name=f"Phantom Hull {i}")
        FleetPosition.objects.create(campaign=m.campaign, fleet=fleet, system=systems[i % 4])
    reveals.reveal_fleet(campaign=m.campaign, fleet=m.shadow, faction=m.norge, user=m.organiser)
    campaign_turn_open(campaign=m.campaign, user=m.organiser)
    campaign_turn_close(campaign=m.campaign, user=m.organiser)
    campaign_turn_open(campaign=m.campaign, user=m.organiser)
    # Norge (Oslo Station at Sol) saw the ghosts at Sol, Vega and Deneb, and the Shadow.
    assert Sighting.objects.filter(observer=m.norge).count() == 9 + 1
    out = tmp_path / "site"
    with override_settings(MEDIA_ROOT=tmp_path / "media"):
        site_build(out_dir=out, pdfs=False)
    text = all_text(out)
    turn_pages = list((out / "en" / "maps" / "test-league").glob("turn-*.html"))
    assert turn_pages
    for page in turn_pages:  # each draws the public's star map
        html = page.read_text()
        svg = html[html.index("<svg") : html.index("</svg>")]
        assert "Home Fleet" in svg and "Contact" not in svg and "last seen" not in svg
    assert list((out / "pagefind" / "fragment").glob("*.pf_fragment"))
    assert "Home Fleet" in text and "Raiders" in text  # public fleets are published
    for secret in ["Nocturne Veil", "nocturne-veil", "Ghost Wing", "ghost-wing", "Phantom Hull"]:
        assert secret not in text, secret
    labels = [contact_label(m.campaign.pk, f.pk) for f in Fleet.objects.filter(hidden=True)]
    assert not [label for label in labels if label in text]  # no contact either
