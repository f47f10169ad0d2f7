"""The seed's ship type words (French in the catalogues) read in the reader's language;
a league's own words stay as written (factions.type_words)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from campaign.sample.loader import sample_load
from factions.models import ShipClass
from factions.type_words import SEED_TYPE_WORDS, type_label

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "word,english",
    [
        ("vaisseau de ligne", "ship of the line"),
        ("croiseur lourd", "heavy cruiser"),
        ("frégate", "frigate"),
        ("porte-nef léger", "light carrier"),
        ("Corvette", "corvette"),
        ("cuirassé stellaire", "cuirassé stellaire"),  # a league's own word: as written
        ("", ""),
    ],
)
def test_type_label_in_english_and_back_in_french(word, english):
    with translation.override("en"):
        assert type_label(word) == english
    with translation.override("fr"):
        assert type_label(word) == (word.lower() if word.lower() in SEED_TYPE_WORDS else word)


def test_every_catalogue_type_word_is_translated():
    words = {
        d.get("type_word", "")
        for f in Path("factions/catalogue").glob("*.json")
        for d in json.loads(f.read_text("utf-8")).get("classes", [])
    } - {""}
    assert words and words <= set(SEED_TYPE_WORDS)


def test_english_pages_show_english_type_words(client: Client):
    sample_load()
    sabra = ShipClass.objects.get(name="Sabra")
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    page = english.get(sabra.get_absolute_url()).content.decode()
    assert "ship of the line" in page and "vaisseau de ligne" not in page
    french = Client(HTTP_ACCEPT_LANGUAGE="fr").get(sabra.get_absolute_url()).content.decode()
    assert "vaisseau de ligne" in french
