"""Both catalogues are complete: ``makemessages`` finds no string left untranslated or
fuzzy in French or English. Run in a copy of the sources and ``locale/``
(makemessages writes into the catalogues it finds under the current folder), so the test
never rewrites the project's files."""

from __future__ import annotations

import gettext
import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command


def _entries(po: Path) -> list[tuple[str, str, bool]]:
    """``(msgid, msgstr, fuzzy)`` of each entry of ``po`` (plural forms: every msgstr[n]
    must be filled, they are joined)."""
    entries = []
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in block.splitlines())
        ids = re.findall(r'^msgid ((?:".*"\n?)+)', block, re.M)
        strs = re.findall(r'^msgstr(?:\[\d\])? ((?:".*"\n?)+)', block, re.M)
        if not ids:
            continue

        def text(chunk: str) -> str:
            return "".join(re.findall(r'"(.*)"', chunk))

        msgstrs = [text(s) for s in strs]
        entries.append((text(ids[0]), "" if "" in msgstrs else "|".join(msgstrs), fuzzy))
    return entries


@pytest.mark.parametrize("language", ["fr", "en"])
def test_makemessages_leaves_no_untranslated_or_fuzzy_string(tmp_path, language, monkeypatch):
    base = Path(settings.BASE_DIR)
    for folder in ("battles", "campaign", "factions", "templates", "locale"):
        shutil.copytree(base / folder, tmp_path / folder, ignore=shutil.ignore_patterns("*.pyc"))
    locale = tmp_path / "locale"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(settings, "LOCALE_PATHS", [locale])
    call_command("makemessages", locale=[language], no_obsolete=True, verbosity=0)
    po = locale / language / "LC_MESSAGES" / "django.po"
    entries = [e for e in _entries(po) if e[0]]  # the header has an empty msgid
    assert len(entries) > 300
    missing = [msgid for msgid, msgstr, fuzzy in entries if not msgstr or fuzzy]
    assert missing == []


def test_english_catalogue_translates_each_msgid_to_itself():
    """The English catalogue is filled from the msgids: a fuzzy guess kept as a
    translation ("Star map" shown as "Start", "%(place)s: %(what)s" as "password:
    %(why)s", which raised KeyError on the English map page and the site's turn maps)
    is a wrong English text. Checked on the compiled catalogue Django reads."""
    mo = Path(settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES" / "django.mo"
    with mo.open("rb") as handle:
        catalogue = gettext.GNUTranslations(handle)._catalog
    wrong = {}
    for key, text in catalogue.items():
        if isinstance(key, tuple):  # plural: (msgid, n); msgstr[1] follows msgid_plural
            msgid, index = key
            if index == 0 and text != msgid.split("\x04")[-1]:
                wrong[msgid] = text
        elif key and text != key.split("\x04")[-1]:  # "context\x04msgid"
            wrong[key] = text
    assert wrong == {}


def test_english_catalogue_source_matches_the_compiled_one():
    """The ``.po`` (what ``make messages`` rewrites) holds the same English as the ``.mo``:
    no msgstr differs from its msgid there either."""
    po = Path(settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES" / "django.po"
    wrong = [
        (msgid, msgstr)
        for msgid, msgstr, _fuzzy in _entries(po)
        # a plural's msgstr[n] are joined with "|": its first is the msgid
        if msgid and msgstr != msgid and not msgstr.startswith(msgid + "|")
    ]
    assert wrong == []
