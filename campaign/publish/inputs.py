"""What a site build read, as one digest, so that a rebuild with nothing changed does nothing.

The pages' own keys (``builder.Baker.key``) tell which pages changed, but computing them
reads every battle, side, participant and ship as rows and digests each page's part: 9.3 s
of CPU for a 10 000-battle league in which nothing changed. This module reads the same
tables in one plain query each and digests them whole (:func:`fingerprint`): the rows of
every table of the league's apps, the append-only ones (the battle log, the history
tables) by their count and highest id, with the build's options, the code and templates
(``builder._sources_digest``) and the static files' names, sizes and times. When it is the
digest the served site was built from (:data:`INPUTS`, written beside the manifest when a
build finishes) and the served tree holds exactly its manifest's files, the build keeps
the site as it is (:func:`unchanged`).

Any table written outside the :data:`_IGNORED` ones (logins, API tokens, e-mail deliveries,
the site builds themselves) makes the next build a real one, which then renders only the
pages whose key changed: a digest that differs costs one ordinary incremental build, never
a stale page. The digest is read *before* the build reads its rows, so rows written
during a build are at worst digested as older than they are (the next build is real).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.db import connection

from campaign.publish.output import MANIFEST, MARKER

__all__ = ["INPUTS", "fingerprint", "inputs_json", "unchanged"]

#: The served tree's record of what its build read (beside the manifest).
INPUTS = ".admiralty-inputs.json"

#: Apps whose tables a page may show (labels).
_APPS = ("auth", "campaign", "factions", "battles", "turns", "starmap", "fog")
#: Tables no page shows, written by people or the build itself ("app_label.ModelName").
_IGNORED = {
    "campaign.SiteBuild",  # the build's own record, written as it starts
    "campaign.ApiToken",  # last use
    "campaign.Invitation",
    "factions.DataVersion",  # a token that changes with the factions' rows, digested here
    "auth.Permission",
    "auth.Group",
}
#: Columns that change without a page changing (``"table.column"``).
_IGNORED_COLUMNS = {"auth_user.last_login", "auth_user.password"}
#: Tables only ever appended to: digested by their row count and highest id.
_APPEND_ONLY = {"battles.Event"}


def _tables() -> list[tuple[str, str, list[str], bool]]:
    """``(table, pk column, columns, append only)`` of every table the digest reads."""
    tables = []
    for label in _APPS:
        for model in apps.get_app_config(label).get_models(include_auto_created=True):
            name = f"{model._meta.app_label}.{model.__name__}"
            if name in _IGNORED or model._meta.proxy or not model._meta.managed:
                continue
            table = model._meta.db_table
            columns = [
                f.column
                for f in model._meta.concrete_fields
                if f"{table}.{f.column}" not in _IGNORED_COLUMNS
            ]
            # simple-history's tables only grow: their count and last id say it all.
            grows = name in _APPEND_ONLY or model.__name__.startswith("Historical")
            tables.append((table, model._meta.pk.column, columns, grows))
    return tables


def _files(folder: str | Path) -> list[tuple[str, int, int]]:
    """Name (relative to ``folder``: a checkout moved elsewhere is the same site), size
    and time of every file under ``folder``."""
    found = []
    for root, _dirs, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            stat = os.stat(path)
            found.append((os.path.relpath(path, folder), stat.st_size, stat.st_mtime_ns))
    return sorted(found)


def _statics() -> list[list[tuple[str, int, int]]]:
    return [_files(folder) for folder in settings.STATICFILES_DIRS]


def _report_files() -> list[tuple[str, int, int]]:
    """The stored report PDFs (a build with PDFs copies them)."""
    return _files(Path(settings.MEDIA_ROOT) / "reports")


def fingerprint(options: list[Any], pdfs: bool) -> str:
    """A digest of everything a build reads (the module docstring): the league's tables,
    ``options`` (the build's arguments and sources digest), the static files and, with
    ``pdfs``, the stored report PDFs. One query per table; 0.x s at 10 000 battles."""
    sha = hashlib.sha256(json.dumps(options, default=str).encode())
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for table, pk, columns, grows in _tables():
            sha.update(f"\0{table}\0".encode())
            if grows:
                sql = f"SELECT COUNT(*), MAX({quote(pk)}) FROM {quote(table)}"  # noqa: S608
            else:
                listed = ", ".join(quote(c) for c in columns)
                sql = f"SELECT {listed} FROM {quote(table)} ORDER BY {quote(pk)}"  # noqa: S608
            cursor.execute(sql)
            while rows := cursor.fetchmany(5000):
                sha.update(repr(rows).encode())
    sha.update(repr(_statics()).encode())
    if pdfs:
        sha.update(repr(_report_files()).encode())
    return sha.hexdigest()[:32]


def inputs_json(digest: str, result: Any) -> str:
    """What :data:`INPUTS` holds: the digest and what the build made (``SiteBuildResult``
    fields a build that keeps the site reports again)."""
    kept = {
        name: getattr(result, name)
        for name in ("languages", "pages", "pdfs", "campaigns", "factions", "fleets", "ships",
                     "battles", "warnings")
    }  # fmt: skip
    return json.dumps({"fingerprint": digest, "result": kept}, separators=(",", ":"))


def unchanged(out_dir: Path, digest: str) -> dict[str, Any] | None:
    """The served site's recorded result when it was built from ``digest`` and its tree
    holds exactly the files of its manifest (none deleted or added by hand); else None
    (also for a plain folder, which only an earlier version makes: the build links it)."""
    if not os.path.islink(out_dir):
        return None
    served = os.path.realpath(out_dir)
    try:
        with open(os.path.join(served, INPUTS), encoding="utf-8") as file:
            recorded = json.load(file)
        if recorded.get("fingerprint") != digest:
            return None
        with open(os.path.join(served, MANIFEST), encoding="utf-8") as file:
            expected = set(json.load(file))
    except (OSError, ValueError):
        return None
    expected |= {MARKER, MANIFEST, INPUTS}
    skip = len(served) + 1
    count = 0
    for folder, _dirs, files in os.walk(served):
        inside = folder[skip:] + "/" if len(folder) > len(served) else ""
        for name in files:
            if inside + name not in expected:
                return None
            count += 1
    return recorded["result"] if count == len(expected) else None
