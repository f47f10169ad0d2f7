"""``python -m bench.reports``: figures for reports and the published site.

Printed, not asserted. Each figure runs in a fresh temporary SQLite database and media
folder (nothing of the project's data is touched):

1. the Miranda report of the sample campaign: the HTML fragment (``report_context`` +
   template) and the PDF (WeasyPrint, the render call alone: wall and CPU time), best of
   ``--repeat``; ``--only miranda`` runs just this, ``--counts`` adds the instructions
   of one render under callgrind (steady where times on a shared machine are not);
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
from battles.reports.context import report_context, pdf_page_html, pdf_from_html
translation.activate("fr")
b = Battle.objects.get(slug="colonisation-compromise")
html_t, html_c, pdf_t, cpu_t = [], [], [], []
pdf_from_html(pdf_page_html(b))  # warm: imports WeasyPrint, loads fonts once
for _ in range({repeat}):
    t, c = time.perf_counter(), time.process_time()
    render_to_string("reports/battle.html", report_context(b))
    html_t.append(time.perf_counter() - t); html_c.append(time.process_time() - c)
    page = pdf_page_html(b)
    t, c = time.perf_counter(), time.process_time(); data = pdf_from_html(page)
    pdf_t.append(time.perf_counter() - t); cpu_t.append(time.process_time() - c)
print(f"{{min(html_t) * 1000:.1f}} {{min(html_c) * 1000:.1f}} {{min(pdf_t):.2f}} {{min(cpu_t):.2f}}"
      f" {{len(data) // 1024}}")
"""
        _, _, out = _manage(tmp, "shell", "-c", code)
        html_ms, html_cpu, pdf_s, cpu_s, size = out.split()[-5:]
        print(f"Miranda report: HTML {html_ms} ms (target ≤ 50; CPU {html_cpu} ms), PDF {pdf_s} s"
              f" (target ≤ 1; CPU {cpu_s} s), {size} KiB, best of {repeat}")  # fmt: skip


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
