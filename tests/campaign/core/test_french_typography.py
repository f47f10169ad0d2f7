"""French spacing in the French catalogue (campaign.core.french_typography): a narrow no-break
space before : ; ! ? and inside « », never inside placeholders, URLs, times, HTML tags,
code or entities; and the catalogue as committed is already fixed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from campaign.core.french_typography import NNBSP, fix_po, fix_text

N = NNBSP


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("ressources : %(n)s", f"ressources{N}: %(n)s"),
        ("Option : au plus ; non !", f"Option{N}: au plus{N}; non{N}!"),
        ("mot:", f"mot{N}:"),
        ("titre :\\nsuite", f"titre{N}:\\nsuite"),
        ("statut « %(status)s » : non", f"statut «{N}%(status)s{N}»{N}: non"),
        ('(vouliez-vous dire \\"%(hint)s\\"?)', f'(vouliez-vous dire \\"%(hint)s\\"{N}?)'),
        # left as written
        ("à 12:30 le", "à 12:30 le"),
        ("voir https://example.org/x?y=1 ici", "voir https://example.org/x?y=1 ici"),
        ('e.g. {\\"half_thrust_turn_cap\\": true}.', 'e.g. {\\"half_thrust_turn_cap\\": true}.'),
        ("<code>Authorization: Bearer</code> :", f"<code>Authorization: Bearer</code>{N}:"),
        ("`a: b` c :", f"`a: b` c{N}:"),
        ("Tom &amp; Jerry ; ok", f"Tom &amp; Jerry{N}; ok"),
        (
            'Compte ? <a href=\\"%(url)s?next=%(next)s\\">Connexion</a> : ici',
            f'Compte{N}? <a href=\\"%(url)s?next=%(next)s\\">Connexion</a>{N}: ici',
        ),
        ("d%(sides)d=%(result)d", "d%(sides)d=%(result)d"),
    ],
)
def test_fix_text(before, after):
    assert fix_text(before) == after
    assert fix_text(after) == after  # idempotent


def test_the_french_catalogue_is_already_fixed():
    po = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES" / "django.po"
    blocks = po.read_text(encoding="utf-8").split("\n\n")
    header = [b for b in blocks if re.search(r'^msgid ""\nmsgstr', b, re.M)]
    assert len(header) == 1 and "Plural-Forms: nplurals=2; plural=(n > 1);" in header[0]
    msgstrs = [
        "".join(re.findall(r'^"(.*)"$', m[1], re.M))
        for block in blocks
        if block not in header
        for m in re.finditer(r'^msgstr(?:\[\d+\])? ((?:".*"\n)+)', block + "\n", re.M)
    ]
    assert len(msgstrs) > 1000
    assert [s for s in msgstrs if fix_text(s) != s] == []


def test_a_french_page_string_has_the_narrow_space():
    with translation.override("fr"):
        assert translation.gettext("%(ship)s: %(error)s") == f"%(ship)s{N}: %(error)s"


def test_fix_po_reaches_a_one_line_msgstr_that_ends_its_entry(tmp_path):
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\n'
        'msgid "Roles:"\nmsgstr "Rôles :"\n\n'
        'msgid "a"\nmsgid_plural "b"\nmsgstr[0] "un !"\nmsgstr[1] "deux !"\n',
        encoding="utf-8",
    )
    assert fix_po(po) == 3  # one msgstr and both plural forms
    text = po.read_text(encoding="utf-8")
    assert f'msgstr "Rôles{N}:"\n\n' in text
    assert f'msgstr[0] "un{N}!"\nmsgstr[1] "deux{N}!"\n' in text
    assert 'msgstr ""\n"Language: fr\\n"\n' in text
    assert fix_po(po) == 0
