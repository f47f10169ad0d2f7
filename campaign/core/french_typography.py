"""French spacing in the French catalogue: a narrow no-break space (U+202F) before « : ; !
? » and inside « », as French typography wants (the ordinary space the translators typed
lets a browser or the PDF put the colon at the start of a line).

One character for every case (the Imprimerie nationale's finer rule puts a full no-break
space before the colon; the narrow one everywhere is the common screen practice and the
shipped DejaVu fonts draw it). Only ``msgstr`` texts change, and inside them never: HTML
tags and ``<code>`` elements, Markdown code spans, ``{…}`` examples (JSON), entities
(``&amp;``), URLs (``https://…``, ``?next=``), times (``12:30``) or anything where the sign
is not followed by a space, the end or a closing mark. ``make messages`` runs it after
``makemessages``; ``tests/campaign/core/test_catalogues.py`` checks the catalogue is fixed.

Run: ``python -m campaign.core.french_typography locale/fr/LC_MESSAGES/django.po``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

NNBSP = "\u202f"
#: Spans left exactly as written: tags, code, Markdown code, JSON-like examples, entities.
_PROTECTED = re.compile(
    r"<code>.*?</code>|<[^>]*>|`[^`]*`|\{[^{}]*\}|&#?\w+;", re.DOTALL | re.IGNORECASE
)
#: What may follow the sign for it to be punctuation: the end, a space, an escaped newline
#: or quote of the .po text, a tag, a closing bracket or quote.
_AFTER = r"(?=$|\s|\\n|\\\"|<|[)\]»'’\"])"
#: Any space before the sign (ordinary, no-break) or none after a word, becomes U+202F.
_BEFORE_SIGN = re.compile(r"(?:[ \u00a0]+|(?<=[^\s:;!?«\u202f\u00a0]))([:;!?])" + _AFTER)
_OPENING = re.compile(r"«[ \u00a0\u202f]*")
_CLOSING = re.compile(r"[ \u00a0\u202f]*»")


def _fix_plain(text: str) -> str:
    text = _BEFORE_SIGN.sub(lambda m: NNBSP + m[1], text)
    text = _OPENING.sub("«" + NNBSP, text)
    return _CLOSING.sub(NNBSP + "»", text)


def fix_text(text: str) -> str:
    """``text`` (a msgstr as the .po file writes it, escapes included) with French spacing
    (module docstring); idempotent."""
    out, last = [], 0
    for span in _PROTECTED.finditer(text):
        out += [_fix_plain(text[last : span.start()]), span[0]]
        last = span.end()
    out.append(_fix_plain(text[last:]))
    return "".join(out)


_MSGSTR = re.compile(r'^(msgstr(?:\[\d+\])? )((?:".*"\n)+)', re.M)


def fix_po(path: Path) -> int:
    """Rewrite every msgstr of the catalogue at ``path`` but the header's with
    :func:`fix_text` (one line each; ``makemessages`` wraps them again). Returns how many
    changed."""
    changed = 0

    def one(match: re.Match[str]) -> str:
        nonlocal changed
        old = "".join(re.findall(r'^"(.*)"$', match[2], re.M))
        new = fix_text(old)
        if new == old:
            return match[0]
        changed += 1
        return f'{match[1]}"{new}"\n'

    blocks = path.read_text(encoding="utf-8").split("\n\n")
    # The header (the entry with an empty msgid) is metadata, not French text. Each block
    # gets its last line's newline back so that _MSGSTR sees a msgstr that ends it.
    fixed = "\n\n".join(
        block
        if re.search(r'^msgid ""\nmsgstr', block, re.M)
        else _MSGSTR.sub(one, block + "\n")[:-1]
        for block in blocks
    )
    if changed:
        path.write_text(fixed, encoding="utf-8")
    return changed


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(f"{name}: French spacing fixed in {fix_po(Path(name))} messages")
