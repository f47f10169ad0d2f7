"""The SSD, the PDF and the published site speak the interface's language: French by
default (LANGUAGE_CODE "fr"), Full Thrust terms as in the rules' glossary
(coque, blindage, masse, poussée, écran, contrôle de tir)."""

from __future__ import annotations

import io

import pytest
from django.utils import translation
from pypdf import PdfReader

from battles.reports.context import render_pdf
from campaign.publish import site_build
from factions.ssd.draw import design_svg
from tests.battles.reports.report_fixtures import make_battle
from tests.factions.ssd.test_ssd import saar

ENGLISH = ("Hull (", "Armour (", "Mass ", "Thrust ", "Crew factors", "Bays and squadrons")


def test_ssd_labels_are_french_with_plural_forms():
    with translation.override("fr"):
        svg = design_svg(saar())
        single = design_svg(saar(hull={"boxes": 1, "rows": [1]}, armour={"layers": [1]}))
    assert "Masse 36" in svg and "Poussée 6" in svg and "Écrans 1" in svg
    assert "Coque (9 cases)" in svg and "Blindage (5 cases)" in svg
    assert "Coque (1 case)" in single and "Blindage (1 case)" in single
    assert "contrôle de tir 1" in svg and "Hangars et escadrilles" in svg
    assert "pont de commandement" in svg and "système de défense" in svg
    for word in ENGLISH:
        assert word not in svg


def test_ssd_labels_stay_english_in_english():
    with translation.override("en"):
        svg = design_svg(saar(hull={"boxes": 1, "rows": [1]}))
    assert "Hull (1 box)" in svg and "Mass 36" in svg


@pytest.mark.django_db
def test_pdf_and_site_pages_are_french(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    # The default language: an earlier test's English request may have left English
    # active in this thread (this failed after tests/campaign/test_site_*.py).
    translation.deactivate()
    battle = make_battle()
    pdf = PdfReader(io.BytesIO(render_pdf(battle)))
    # pypdf loses some spaces of the SVG labels: compare without them.
    text = "".join(page.extract_text() for page in pdf.pages).replace(" ", "")
    assert "Coque(30cases)" in text and "Masse90" in text  # the damaged Vishnu Second's SSD
    assert "Hull(" not in text and "Armour(" not in text

    out = tmp_path / "site"
    site_build(out_dir=out)
    page = (out / "fr/battles/test-league/colonisation-compromise.html").read_text()
    assert "Télécharger le PDF" in page and "Unités perdues par camp" in page
    assert "Coque (" in page
    assert "Hull (" not in page and "Download the PDF" not in page
    # …and the English tree speaks English, SSD included.
    english = (out / "en/battles/test-league/colonisation-compromise.html").read_text()
    assert "Download the PDF" in english and "Hull (" in english and "Coque (" not in english
    index = (out / "fr/index.html").read_text()
    assert "Vainqueur" in index and "1 bataille" in index
    campaign = (out / "fr/campaigns/test-league.html").read_text()
    assert (
        "Vaisseaux perdus" in campaign
        and "Unités légères perdues" in campaign
        and "Batailles gagnées et perdues" in campaign
    )


def test_the_crew_dots_start_after_the_crew_label_in_french_and_english():
    import re

    from django.utils import translation

    design = {"name": "Test", "mass": 60, "hull": {"boxes": 6}, "systems": []}
    for lang, label in (("fr", "Facteurs d'équipage (3)"), ("en", "Crew factors (3)")):
        with translation.override(lang):
            svg = design_svg(design)
        crew = svg.split('class="crew"', 1)[1]
        text_x = float(re.search(r'<text x="([\d.]+)"', crew).group(1))
        first_dot = float(re.search(r'<circle cx="([\d.]+)"', crew).group(1))
        # The label's width at 12 px bold upper case is at most 0.75 em a character.
        assert first_dot - 6 > text_x + len(label) * 12 * 0.72, lang
