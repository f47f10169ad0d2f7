"""A ship class's figures come from its design document alone (``ShipClass.set_design``):
both writers (catalogue and importer) and the admin go through it; one fallback draws a class
without a design."""

from __future__ import annotations

import copy
import json

import pytest

from factions.catalogue_loader import catalogue_load
from factions.designs.imports import designs_parse, designs_save
from factions.designs.schema import DesignInvalid
from factions.models import Faction, ShipClass
from tests.world import catalogue_design

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

COLUMNS = ("name", "type_word", "provisional", "mass", "hull_boxes", "armour", "thrust", "points")


def _columns(sc: ShipClass) -> dict:
    sc.refresh_from_db()
    return {f: getattr(sc, f) for f in COLUMNS}


def _saar(faction: Faction) -> ShipClass:
    sc = ShipClass(faction=faction, slug="saar")
    sc.name, sc.type_word = "Sa'ar", "corvette"
    sc.set_design(catalogue_design("Sa'ar"))
    sc.save()
    return sc


def test_set_design_derives_every_figure_and_refuses_a_bad_document_unchanged(cast):
    sc = _saar(cast.qatzrin)
    kineret = catalogue_design("Kineret")
    sc.set_design(kineret)
    layers = sum(kineret["armour"]["layers"])
    assert (sc.mass, sc.hull_boxes, sc.armour, sc.thrust, sc.points) == (
        kineret["mass"],
        kineret["hull"]["boxes"],
        layers,
        kineret["thrust"],
        kineret["points"],
    )
    before = (sc.design, sc.mass, sc.hull_boxes, sc.armour, sc.thrust, sc.points)
    bad = {**kineret, "mass": kineret["mass"] + 1}
    with pytest.raises(DesignInvalid, match=r"^mass: systems add up to"):
        sc.set_design(bad)
    assert (sc.design, sc.mass, sc.hull_boxes, sc.armour, sc.thrust, sc.points) == before


def test_the_catalogue_and_the_importer_give_identical_columns_for_one_document(cast, tmp_path):
    # A valid document that states no points: both price it the same (the catalogue used to
    # leave the column empty while the importer priced it).
    doc = catalogue_design("Kineret")
    stated = doc.pop("points")
    (tmp_path / "qatzrin.json").write_text(
        json.dumps({"faction": {"slug": "qatzrin", "name": "Qatzrin"}, "classes": [doc]}),
        encoding="utf-8",
    )
    from_catalogue = catalogue_load(directory=tmp_path)[("qatzrin", "Kineret")]
    other = Faction.objects.create(name="Copy", slug="copy")
    result = designs_parse(copy.deepcopy(doc), faction="copy")
    (imported,) = designs_save(faction=other, result=result)
    assert _columns(from_catalogue) == _columns(imported)
    assert _columns(imported)["points"] == stated
    assert from_catalogue.design["points"] == imported.design["points"] == stated


def test_an_admin_change_of_the_design_re_derives_the_figures(admin_client, cast):
    sc = _saar(cast.qatzrin)
    url = f"/admin/factions/shipclass/{sc.pk}/change/"
    assert admin_client.get(url).status_code == 200
    kineret = catalogue_design("Kineret")
    form = {
        "faction": cast.qatzrin.pk,
        "name": "Sa'ar",
        "slug": "saar",
        "type_word": "corvette",
        "provisional": "on",
        # The figures are read-only: a posted mass is ignored.
        "mass": "1",
    }
    bad = {**kineret, "thrust": kineret["thrust"] + 2}
    before = _columns(sc)
    response = admin_client.post(
        url, {**form, "design": json.dumps(bad)}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    assert (
        response.context["adminform"].form.errors["design"][0].startswith("mass: systems add up to")
    )
    assert _columns(sc) == before

    response = admin_client.post(url, {**form, "design": json.dumps(kineret)})
    assert response.status_code == 302
    sc.refresh_from_db()
    assert sc.design == kineret
    assert (sc.mass, sc.hull_boxes, sc.armour, sc.thrust, sc.points) == (
        kineret["mass"],
        kineret["hull"]["boxes"],
        sum(kineret["armour"]["layers"]),
        kineret["thrust"],
        kineret["points"],
    )

    # A design that states no points is priced, in the document and its column alike.
    unpriced = {k: v for k, v in kineret.items() if k != "points"}
    response = admin_client.post(url, {**form, "design": json.dumps(unpriced)})
    assert response.status_code == 302
    sc.refresh_from_db()
    assert sc.design == kineret and sc.points == kineret["points"]


def test_a_class_without_a_design_draws_the_same_fallback_in_the_api_and_on_its_ships(cast, client):
    sc = ShipClass.objects.create(
        faction=cast.qatzrin, name="Old", slug="old", mass=45, hull_boxes=12, armour=3,
        thrust=4, design={},
    )  # fmt: skip
    assert sc.design_document["armour"] == {"layers": [3]}
    body = client.get(f"/api/designs/{sc.pk}/ssd.svg").content.decode()
    # The API's own fallback had no armour; the crew is the engine's ceil(45 / 20) = 3.
    assert body.count('class="armour-box') == 3
    assert body.count('class="crew-dot') == 3
