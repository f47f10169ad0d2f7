"""``python -m bench.reports``: figures for reports and the published site.

Printed, not asserted. Each figure runs in a fresh temporary SQLite database and media
folder (nothing of the project's data is touched):

1. the Miranda report of the sample campaign: the HTML fragment (``report_context`` +
   template), best of ``--repeat``; ``--only miranda`` runs just this, ``--counts`` adds
   the instructions of one PDF render under callgrind (steady where times on a shared
   machine are not). The PDF's time is ``python -m bench.startup``'s: the whole
   ``render_report`` command beside the ``weasyprint`` CLI on the same page, start-up
   included (a warm render call alone, the collector off, left most of it out);
2. the published site of ``generate_league`` leagues beside Hugo on the same pages, for
   each N of ``--battles``: :mod:`bench.site` (also ``python -m bench.site``).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench import site
from bench.site import BASE, _env, _manage


def miranda(repeat: int) -> None:
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        _manage(tmp, "migrate", "-v0")
        _manage(tmp, "load_sample")
        code = f"""
import time
from django.template.loader import render_to_string
from django.utils import translation
from battles.models import Battle
from battles.reports.context import report_context
translation.activate("fr")
b = Battle.objects.get(slug="colonisation-compromise")
html_t, html_c = [], []
for _ in range({repeat}):
    t, c = time.perf_counter(), time.process_time()
    render_to_string("reports/battle.html", report_context(b))
    html_t.append(time.perf_counter() - t); html_c.append(time.process_time() - c)
print(f"{{min(html_t) * 1000:.1f}} {{min(html_c) * 1000:.1f}}")
"""
        _, _, out = _manage(tmp, "shell", "-c", code)
        html_ms, html_cpu = out.split()[-2:]
        print(f"Miranda report: HTML {html_ms} ms (target ≤ 50; CPU {html_cpu} ms), best of "
              f"{repeat}; its PDF: python -m bench.startup (render_report beside the "
              "weasyprint CLI)")  # fmt: skip


_COUNT_CODE = """
from django.utils import translation
from battles.models import Battle
from battles.reports.context import pdf_page_html, pdf_from_html
translation.activate("fr")
page = pdf_page_html(Battle.objects.get(slug="colonisation-compromise"))
for _ in range({n}):
    pdf_from_html(page)
"""


def miranda_counts() -> None:
    """Instructions of one Miranda PDF render under callgrind (``--counts``): a process
    with one render (WeasyPrint imported, fonts loaded) and one with two; the difference
    is one warm render. Slow (minutes) but steady where CPU times on a shared machine
    are not."""
    if shutil.which("valgrind") is None:
        print("Miranda PDF instructions: valgrind not installed, not counted")
        return
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        _manage(tmp, "migrate", "-v0")
        _manage(tmp, "load_sample")
        counts = []
        for n in (1, 2):
            cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp / 'cg.out'}",
                   sys.executable, "manage.py", "shell", "-c", _COUNT_CODE.format(n=n)]  # fmt: skip
            done = subprocess.run(  # noqa: S603 - valgrind on our own interpreter
                cmd, cwd=BASE, env=_env(tmp), capture_output=True, text=True, check=True
            )
            counts.append(int(done.stderr.split("Collected :")[-1].split()[0]))
        print(f"Miranda PDF render: {(counts[1] - counts[0]) / 1e9:.2f} G instructions (callgrind)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--battles", default="200,2000", help="comma-separated league sizes")
    parser.add_argument(
        "--no-search", action="store_true", help="site: skip the builds with Pagefind on both"
    )
    parser.add_argument(
        "--only", choices=("miranda", "league"), help="run only the Miranda report or the leagues"
    )
    parser.add_argument(
        "--counts", action="store_true", help="also count one Miranda PDF render (callgrind)"
    )
    args = parser.parse_args()
    if args.only != "league":
        miranda(args.repeat)
        if args.counts:
            miranda_counts()
    if args.only != "miranda":
        if shutil.which("hugo") is None:
            print("site: hugo not installed (apt-get install hugo), not compared")
            return
        for battles in [int(n) for n in args.battles.split(",") if n]:
            site.league(battles, not args.no_search)


if __name__ == "__main__":
    main()
