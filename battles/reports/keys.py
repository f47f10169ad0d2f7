"""What a battle's report reads, hashed: the key a rendered PDF is kept under.

A PDF is rendered once per key: the rows the report reads (the battle, its campaign and
winner, its sides with their factions and fleets, every participant with its ship, class,
light-unit group and their fleets' visibility, the other systems' units, how many log
entries and the last one), the language, and the code and files that render it
(:func:`report_sources_digest`) with the WeasyPrint version. No page is rendered to find
the key: :func:`report_pdf_keys` costs five queries for any number of battles.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import Count, Max

from battles.models import Battle, BattleSide, Event, Participant
from battles.models.other_games import SystemParticipant, SystemUnit
from factions.models import Fleet, LightUnitGroup, Ship, ShipClass

#: What renders a report (templates, the report code, the SSDs and the map, styles, fonts
#: and the catalogues): a change to any of them renders every PDF again.
_SOURCES = (
    "templates/reports",
    "battles/reports/context.py",
    "battles/reports/turn_log.py",
    "battles/log/battle_map.py",
    "battles/log/map_labels.py",
    "battles/log/lines.py",
    "battles/log/light.py",
    "battles/log/damage.py",
    "battles/log/rolls.py",
    "campaign/core/stored_text.py",
    "campaign/core/messages.py",
    "campaign/core/markdown.py",
    "battles/services/other_games.py",
    "battles/reports/pdf.py",
    "battles/reports/pdf_svg_text.py",
    "battles/play/board.py",
    "battles/visibility.py",
    "factions/ssd/draw.py",
    "factions/ssd/canvas.py",
    "factions/ssd/text.py",
    "static/css",
    "static/fonts",
    "locale",
)
_SUFFIXES = {".html", ".py", ".css", ".ttf", ".mo"}
_sources_lock = threading.Lock()
_sources: dict[tuple, str] = {}


def _source_files() -> list[Path]:
    base = Path(settings.BASE_DIR)
    files: list[Path] = []
    for name in _SOURCES:
        path = base / name
        found = sorted(path.rglob("*")) if path.is_dir() else [path]
        files += [f for f in found if f.is_file() and f.suffix in _SUFFIXES]
    return files


def report_sources_digest() -> str:
    """SHA-256 (hex) of the files in :data:`_SOURCES` and the WeasyPrint version; read
    again only when a file's size or modification time changed."""
    from importlib.metadata import version

    files = _source_files()
    stamp = tuple((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files)
    with _sources_lock:
        if stamp not in _sources:
            sha = hashlib.sha256(version("weasyprint").encode())
            for file in files:
                sha.update(b"\0" + str(file).encode() + b"\0" + file.read_bytes())
            _sources.clear()
            _sources[stamp] = sha.hexdigest()
        return _sources[stamp]


def _fields(model: Any, prefix: str = "") -> list[str]:
    return [prefix + f.attname for f in model._meta.concrete_fields]


def report_pdf_keys(battle_ids: Iterable[int], *, lang: str | None = None) -> dict[int, str]:
    """``{battle id: key}`` (SHA-256 hex) of each battle's PDF report in ``lang`` (None:
    its campaign's language, else ``LANGUAGE_CODE``). Five queries; unknown ids are left
    out."""

    ids = list(battle_ids)
    battles = {
        row["id"]: row
        for row in Battle.objects.filter(pk__in=ids).values(
            *_fields(Battle),
            "campaign__name",
            "campaign__slug",
            "campaign__language",
            "winner__name",
            "winner__slug",
        )  # fmt: skip
    }
    rows: dict[int, list[Any]] = defaultdict(list)
    sides = BattleSide.objects.filter(battle_id__in=ids).order_by("pk")
    for row in sides.values(
        *_fields(BattleSide), "faction__name", "faction__slug", *_fields(Fleet, "fleet__")
    ):
        rows[row["battle_id"]].append(row)
    participants = Participant.objects.filter(side__battle_id__in=ids).order_by("pk")
    for row in participants.values(
        *_fields(Participant), "side__battle_id",
        *_fields(Ship, "ship__"), *_fields(ShipClass, "ship__ship_class__"),
        "ship__fleet__hidden", *_fields(LightUnitGroup, "light_units__"),
        "light_units__fleet__hidden", "light_units__carrier__fleet_id",
        "light_units__carrier__fleet__hidden",
    ):  # fmt: skip
        rows[row["side__battle_id"]].append(row)
    units = SystemParticipant.objects.filter(side__battle_id__in=ids).order_by("pk")
    for row in units.values(
        *_fields(SystemParticipant), "side__battle_id", *_fields(SystemUnit, "unit__")
    ):
        rows[row["side__battle_id"]].append(row)
    logs = Event.objects.filter(battle_id__in=ids).values("battle_id")
    for row in logs.annotate(n=Count("pk"), last=Max("pk"), seq=Max("sequence")):
        rows[row["battle_id"]].append(row)
    sources = report_sources_digest()
    keys = {}
    for pk, battle in battles.items():
        language = lang or battle["campaign__language"] or settings.LANGUAGE_CODE
        payload = [sources, language, battle, rows[pk]]
        text = json.dumps(payload, default=str, sort_keys=True)
        keys[pk] = hashlib.sha256(text.encode()).hexdigest()
    return keys
