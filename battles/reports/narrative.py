"""Which narrative a reader gets: the drafted one in their language, or a person's own.

A concluded battle's narrative is drafted in every language of the site
(``Battle.narrative_drafts``, :func:`battles.reports.draft.report_drafts`); ``narrative``
holds the campaign's one. While the narrative is still a draft (it equals one of them), a
reader gets the draft in their own language. Once a chronicler writes their own (or one
was typed at the table), it is shown as written, in the language it was written in
(``Battle.narrative_language``), and the page says so when that is not the reader's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import get_language, gettext, gettext_noop

if TYPE_CHECKING:
    from battles.models import Battle


@dataclass(frozen=True)
class Narrative:
    """``text``: the Markdown to show; ``written_in``: the language code a person wrote
    it in when that is not the reader's (``""`` otherwise: a draft, or unknown)."""

    text: str
    written_in: str = ""


def _same(a: str, b: str) -> bool:
    return a.replace("\r\n", "\n").strip() == b.replace("\r\n", "\n").strip()


def is_draft(battle: Battle, text: str) -> bool:
    """True when ``text`` is one of ``battle``'s drafted narratives (in any language):
    saving the desk's form unchanged keeps the narrative a draft."""
    drafts = battle.narrative_drafts if isinstance(battle.narrative_drafts, dict) else {}
    return bool(text.strip()) and any(_same(text, d) for d in drafts.values() if d)


def narrative_for(battle: Battle, language: str, text: str | None = None) -> Narrative:
    """The narrative of ``battle`` (or ``text``, an unsaved one) for a reader of
    ``language`` (a code of ``settings.LANGUAGES``): its draft in that language while it
    is a draft, else the text as written with the language it was written in when that
    differs from ``language``."""
    text = battle.narrative if text is None else text
    if is_draft(battle, text):
        return Narrative(battle.narrative_drafts.get(language) or text)
    written = battle.narrative_language
    return Narrative(text, written if written and written != language else "")


def written_in_note(narrative: Narrative) -> str:
    """The note "Written in French by the chronicler." (or English) in the active
    language for a person's text of another language, else ``""``."""
    notes = {
        "fr": gettext_noop("Written in French by the chronicler."),
        "en": gettext_noop("Written in English by the chronicler."),
    }
    note = notes.get(narrative.written_in)
    return gettext(note) if note else ""


def reader_language() -> str:
    """The active language's code as ``settings.LANGUAGES`` writes it ("fr", "en")."""
    return (get_language() or "").split("-")[0].lower()


#: The language a person writes in is the one their pages are shown in.
writer_language = reader_language
