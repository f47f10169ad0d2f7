"""``python -m bench.site``: the published site beside Hugo on the same content.

Printed, not asserted. For each league size of ``--battles`` (``generate_league --ships
1000 --battles N`` in a fresh temporary SQLite database; nothing of the project's data is
touched), in one run, CPU seconds (user + system of the process and its children, from
``/usr/bin/time``; on a shared machine they move less than wall time):

1. full build: ``build_site --no-pdfs --no-search`` beside ``hugo`` building the *same
   pages*: every page the product wrote, its ``<main>`` body exported as a Hugo content
   file of the same path and language (``.fr.html`` / ``.en.html``, HTML kept as it is, the
   same count), under a layout with the product's header and footer; search on neither
   side. Then search on both sides: the product's build with Pagefind (``build_site
   --no-pdfs`` into a second folder) beside Hugo followed by Pagefind over Hugo's output;
2. rebuild with nothing changed: ``build_site`` again, beside two anchors: Hugo building
   the same content again (it has no incremental build outside its server) and a bare
   walk with ``stat`` of every file of the product's site (the least a build that checks
   its output can do);
3. rebuild after one new battle, beside Hugo building the same content with one more
   page (a copy of a battle page).

PDFs are left out on both sides (they render once per battle version, apart from the
pages; ``bench.reports`` times one). Needs Debian's ``hugo`` (``apt-get install hugo``).
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


_MAIN = re.compile(r'<main class="site-main" data-pagefind-body>(.*)</main>', re.S)
_TITLE = re.compile(r"<title>(.*?) — Admiralty</title>", re.S)

_LAYOUT = """<!doctype html>
<html lang="{{ .Language.Lang }}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{{ .Title }} — Admiralty</title>
  <link rel="stylesheet" href="/static/css/site.css">
</head>
<body class="site-body">
  <header class="site-header"><a class="brand" href="/">Admiralty</a>
    <nav class="site-tools"><a href="/search.html">Search</a> <a href="/feed.xml">Feed</a></nav>
  </header>
  <main class="site-main" data-pagefind-body>{{ .Content }}</main>
  <footer class="site-footer">Admiralty · <a href="/feed.xml">Feed</a></footer>
</body>
</html>
"""

_ADD_BATTLE = (
    "from campaign.league.models import Campaign; from battles.models import Battle;"
    "c = Campaign.objects.get(slug='generated-0'); b = Battle.objects.filter("
    "campaign=c).order_by('pk').last(); sides = list(b.sides.all());"
    "parts = [list(s.participants.all()) for s in sides];"
    "b.pk = None; b.slug = 'one-more'; b.name = 'One more'; b.save();"
    "[(setattr(s, 'pk', None), setattr(s, 'battle', b), s.save(),"
    " [(setattr(p, 'pk', None), setattr(p, 'side', s), p.save()) for p in ps])"
    " for s, ps in zip(sides, parts)]"
)


def hugo_content(site_dir: Path, hugo_dir: Path) -> int:
    """Write a Hugo site in ``hugo_dir`` whose pages are the product's: each HTML page of
    ``site_dir/<lang>/`` becomes ``content/<path>.<lang>.html`` with its title and its
    ``<main>`` body. Returns the number of pages."""
    shutil.rmtree(hugo_dir, ignore_errors=True)
    (hugo_dir / "layouts" / "_default").mkdir(parents=True)
    langs = sorted(p.name for p in site_dir.iterdir() if p.is_dir() and len(p.name) == 2)
    config = [
        'baseURL = "http://example.org/"',
        'disableKinds = ["taxonomy", "term", "RSS", "sitemap", "section", "home", "404"]',
        "uglyURLs = true",
        f"defaultContentLanguage = '{langs[0]}'",
    ]
    for weight, lang in enumerate(langs, start=1):
        config += [f"[languages.{lang}]", f"weight = {weight}"]
    (hugo_dir / "hugo.toml").write_text("\n".join(config) + "\n")
    for kind in ("single", "list"):
        (hugo_dir / "layouts" / "_default" / f"{kind}.html").write_text(_LAYOUT)
    count = 0
    for lang in langs:
        root = site_dir / lang
        for page in root.rglob("*.html"):
            html = page.read_text(encoding="utf-8")
            body = _MAIN.search(html)
            if body is None:
                continue
            title = _TITLE.search(html)
            relative = page.relative_to(root).with_suffix("")
            # "index" is Hugo's own name for a section's page: keep the others' names.
            stem = "home" if relative.name == "index" else relative.name
            target = hugo_dir / "content" / relative.parent / f"{stem}.{lang}.html"
            target.parent.mkdir(parents=True, exist_ok=True)
            name = (title.group(1) if title else stem).replace('"', "'")
            target.write_text(f'---\ntitle: "{name}"\n---\n{body.group(1)}', encoding="utf-8")
            count += 1
    return count


def _timed(command: list[str], **kwargs) -> float:
    """CPU seconds (user + system, children included) of ``command``."""
    before = os.times()
    subprocess.run(command, check=True, capture_output=True, **kwargs)  # noqa: S603
    after = os.times()
    return (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )


def hugo_build(hugo_dir: Path) -> float:
    """CPU seconds of one ``hugo`` build of ``hugo_dir`` (into ``public/``, emptied)."""
    shutil.rmtree(hugo_dir / "public", ignore_errors=True)
    return _timed(["hugo", "--quiet", "-s", str(hugo_dir)])


def pagefind(folder: Path) -> float:
    """CPU seconds of Pagefind indexing ``folder`` (the binary ``pagefind[bin]`` ships)."""
    return _timed([sys.executable, "-m", "pagefind", "--site", str(folder)])


def walk(folder: Path) -> float:
    """CPU seconds of a walk with ``stat`` of every file under ``folder``."""
    started = time.process_time()
    for root, _dirs, files in os.walk(os.path.realpath(folder)):
        for name in files:
            os.stat(os.path.join(root, name))
    return time.process_time() - started


def _build(tmp: Path, out: Path, *flags: str) -> tuple[float, str]:
    _wall, _rss, said = _manage(tmp, "build_site", str(out), "--no-pdfs", *flags)
    return _manage.cpu, said


def _written(said: str) -> str:
    found = re.search(r"(\d+ files written)", said)
    return found.group(1) if found else "?"


def league(battles: int, search: bool) -> None:
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        _manage(tmp, "migrate", "-v0")
        _manage(tmp, "generate_league", "--ships", "1000", "--battles", str(battles))
        out = tmp / "site"
        full, _said = _build(tmp, out, "--no-search")
        hugo_dir = tmp / "hugo"
        pages = hugo_content(out, hugo_dir)
        hugo_full = hugo_build(hugo_dir)
        print(
            f"{battles:>6} battles, {pages} pages: full build {full:.1f} s CPU, hugo on the same"
            f" pages {hugo_full:.1f} s: {full / max(hugo_full, 0.01):.1f}× (goal ≤ 2; no search)",
            flush=True,
        )
        if search:
            searched, _said = _build(tmp, tmp / "site-searched")
            hugo_searched = hugo_build(hugo_dir) + pagefind(hugo_dir / "public")
            print(
                f"{'':>6}   with Pagefind on both: {searched:.1f} s CPU, hugo + pagefind "
                f"{hugo_searched:.1f} s: {searched / max(hugo_searched, 0.01):.2f}× (goal ≤ 1.2)",
                flush=True,
            )
        same, said = _build(tmp, out, "--no-search")
        hugo_again = hugo_build(hugo_dir)
        bare = walk(out)
        print(
            f"{'':>6}   rebuild, nothing changed: {same:.2f} s CPU ({_written(said)}; goal ≤ 1),"
            f" hugo again {hugo_again:.1f} s, a bare stat walk of the site {bare:.2f} s",
            flush=True,
        )
        _manage(tmp, "shell", "-c", _ADD_BATTLE)
        added, said = _build(tmp, out, "--no-search")
        battle = next(hugo_dir.glob("content/battles/*/*.html"))
        shutil.copy(battle, battle.with_name("one-more." + battle.name.split(".", 1)[1]))
        hugo_added = hugo_build(hugo_dir)
        print(
            f"{'':>6}   rebuild, one battle added: {added:.2f} s CPU ({_written(said)}; goal"
            f" ≤ 2), hugo with one page more {hugo_added:.1f} s",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", default="200,2000", help="comma-separated league sizes")
    parser.add_argument(
        "--no-search", action="store_true", help="skip the builds with Pagefind on both sides"
    )
    args = parser.parse_args()
    if shutil.which("hugo") is None:
        print("site: hugo not installed (apt-get install hugo), not compared")
        return
    os.chdir(BASE)
    for battles in [int(n) for n in args.battles.split(",") if n]:
        league(battles, not args.no_search)


if __name__ == "__main__":
    main()
