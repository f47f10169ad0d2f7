"""``python -m bench.reports``: figures for reports and the published site.

Printed, not asserted. Each figure runs in a fresh temporary SQLite database and media
folder (nothing of the project's data is touched):

1. the Miranda report of the sample campaign: the HTML fragment (``report_context`` +
   template), best of ``--repeat``; ``--only miranda`` runs just this, ``--counts`` adds
   the instructions of one PDF render under callgrind (steady where times on a shared
   machine are not). The PDF's time is ``python -m bench.startup``'s: the whole
   ``render_report`` command beside the ``weasyprint`` CLI on the same page, start-up
   included (a warm render call alone, the collector off, left most of it out);
2. ``generate_league --ships 1000 --battles N`` for each N of ``--battles``: a full site
   build (``build_site --no-pdfs``: PDFs render once per battle version, apart from the
   pages), a rebuild after one new battle, wall time and peak memory (``/usr/bin/time``);
3. beside each, a plain Hugo build (Debian's ``hugo``) of the same number of Markdown
   pages (two languages) with similar text: pages per second for both, and the ratio.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent


def _env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["DATABASE_URL"] = f"sqlite:///{tmp / 'bench.sqlite3'}"
    env["MEDIA_ROOT"] = str(tmp / "media")
    env["SITE_ROOT"] = str(tmp / "no-site")
    env.pop("CELERY_BROKER_URL", None)
    return env


def _manage(tmp: Path, *args: str) -> tuple[float, int, str]:
    """Run ``manage.py args`` under /usr/bin/time: (wall seconds, peak RSS in MB, stdout).
    The CPU seconds (user + system, with Pagefind's) go to ``_manage.cpu``: on a shared
    machine they move less than the wall time."""
    timing = tmp / "time.txt"
    cmd = ["/usr/bin/time", "-f", "%e %M %U %S", "-o", str(timing), sys.executable,
           "manage.py", *args]  # fmt: skip
    done = subprocess.run(  # noqa: S603 - our own interpreter and manage.py
        cmd, cwd=BASE, env=_env(tmp), capture_output=True, text=True, check=True
    )
    wall, rss, user, system = timing.read_text().split()[-4:]
    _manage.cpu = float(user) + float(system)
    return float(wall), int(rss) // 1024, done.stdout


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


def hugo(pages: int, tmp: Path) -> float:
    """Seconds for ``hugo`` to build ``pages`` Markdown pages (half fr, half en)."""
    site = tmp / "hugo"
    shutil.rmtree(site, ignore_errors=True)
    (site / "layouts" / "_default").mkdir(parents=True)
    (site / "hugo.toml").write_text(
        'baseURL = "http://example.org/"\ndisableKinds = ["taxonomy", "term"]\n'
        "defaultContentLanguage = 'fr'\n[languages.fr]\nweight = 1\n[languages.en]\nweight = 2\n"
    )
    layout = "<html><body><h1>{{ .Title }}</h1>{{ .Content }}</body></html>"
    for kind in ("single", "list"):
        (site / "layouts" / "_default" / f"{kind}.html").write_text(layout)
    paragraph = ("The squadron held its course through the asteroid belt while the escorts "
                 "screened the carriers. ") * 12  # fmt: skip
    for i in range(pages):
        lang = "fr" if i % 2 == 0 else "en"
        folder = site / "content" / "battles"
        folder.mkdir(parents=True, exist_ok=True)
        head = f"---\ntitle: Clash {i}\n---\n\n## Forces\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        body = head + "\n\n".join([paragraph] * 5) + "\n\nNote[^1].\n\n[^1]: A footnote.\n"
        (folder / f"clash-{i}.{lang}.md").write_text(body)
    started = time.perf_counter()
    subprocess.run(["hugo", "--quiet", "-s", str(site)], check=True, capture_output=True)  # noqa: S607
    return time.perf_counter() - started


def league(sizes: list[int]) -> None:
    for battles in sizes:
        with tempfile.TemporaryDirectory() as name:
            tmp = Path(name)
            _manage(tmp, "migrate", "-v0")
            args = ("generate_league", "--ships", "1000", "--battles", str(battles))
            gen, _, _ = _manage(tmp, *args)
            out = tmp / "site"
            full, rss, _ = _manage(tmp, "build_site", str(out), "--no-pdfs")
            full_cpu = _manage.cpu
            pages = sum(1 for _ in out.rglob("*.html"))
            add = (
                "from campaign.league.models import Campaign; from battles.models import Battle;"
                "c = Campaign.objects.get(slug='generated-0'); b = Battle.objects.filter("
                "campaign=c).order_by('pk').last(); sides = list(b.sides.all());"
                "parts = [list(s.participants.all()) for s in sides];"
                "b.pk = None; b.slug = 'one-more'; b.name = 'One more'; b.save();"
                "[(setattr(s, 'pk', None), setattr(s, 'battle', b), s.save(),"
                " [(setattr(p, 'pk', None), setattr(p, 'side', s), p.save()) for p in ps])"
                " for s, ps in zip(sides, parts)]"
            )
            _manage(tmp, "shell", "-c", add)
            again, rss2, said = _manage(tmp, "build_site", str(out), "--no-pdfs")
            again_cpu = _manage.cpu
            found = re.search(r"(\d+ files written).*search ([^,]+),", said)
            written = ", ".join(found.groups()) if found else "?"
            ours = pages / full
            line = (
                f"{battles:>6} battles (generated in {gen:.0f} s): full build {full:.1f} s "
                f"({full_cpu:.1f} s CPU), {pages} pages ({ours:.0f}/s), peak {rss} MB; rebuild "
                f"after one new battle {again:.1f} s ({again_cpu:.1f} s CPU, {written}, "
                f"peak {rss2} MB); "
            )
            if shutil.which("hugo") is None:
                print(line + "hugo: not installed (apt-get install hugo), not compared")
                continue
            before = os.times()
            hugo_s = hugo(pages, tmp)
            after = os.times()
            hugo_cpu = (after.children_user - before.children_user) + (
                after.children_system - before.children_system
            )
            theirs = pages / hugo_s
            print(
                line + f"hugo {hugo_s:.2f} s ({hugo_cpu:.1f} s CPU, {theirs:.0f} pages/s): "
                f"{theirs / ours:.0f}× faster ({full_cpu / max(hugo_cpu, 0.01):.0f}× by CPU)",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--battles", default="200,1000", help="comma-separated league sizes")
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
        league([int(n) for n in args.battles.split(",") if n])


if __name__ == "__main__":
    main()
