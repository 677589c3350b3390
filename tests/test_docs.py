"""The documentation: the MkDocs site builds with --strict (a broken link or a page missing from
the navigation fails), the settings reference holds every setting of topiccrawler/settings.py,
the README stays a front door, and the commands of Getting started run as shown."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from tests.conftest import ROOT, need_service
from tests.servers import FixtureSite
from topiccrawler.settings_reference import SCRAPY_OWN, markdown, read_settings
from topiccrawler.storage.models import Page

BIN = Path(sys.executable).parent
GETTING_STARTED = ROOT / "docs" / "getting-started.md"


def mkdocs(config: Path, site: Path) -> subprocess.CompletedProcess:
    if shutil.which("mkdocs", path=str(BIN)) is None:
        need_service("MkDocs", "pip install -e '.[docs]' (the dev extra includes it)")
    return subprocess.run(
        [str(BIN / "mkdocs"), "build", "--strict", "-f", str(config), "-d", str(site)],
        cwd=config.parent, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("site")
    built = mkdocs(ROOT / "mkdocs.yml", site)
    assert built.returncode == 0, built.stderr[-3000:]
    return site


def test_the_site_builds_strictly_with_every_page_in_the_nav(site):
    pages = {p.relative_to(ROOT / "docs") for p in (ROOT / "docs").rglob("*.md")}
    assert len(pages) >= 20
    for page in pages:
        built = site / page.with_suffix("") / "index.html"
        if page.name == "index.md":
            built = site / page.parent / "index.html"
        assert built.is_file(), page


def test_a_page_left_out_of_the_nav_or_a_broken_link_fails_the_build(tmp_path):
    for name in ("docs", "scripts"):
        shutil.copytree(ROOT / name, tmp_path / name)
    shutil.copy(ROOT / "mkdocs.yml", tmp_path)
    (tmp_path / "docs" / "stray.md").write_text("# Not in the nav\n", encoding="utf-8")
    built = mkdocs(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert built.returncode != 0 and "stray.md" in built.stderr
    (tmp_path / "docs" / "stray.md").unlink()
    page = tmp_path / "docs" / "workers.md"
    page.write_text(page.read_text() + "\n[gone](no-such-page.md)\n", encoding="utf-8")
    built = mkdocs(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert built.returncode != 0 and "no-such-page.md" in built.stderr


def test_the_settings_reference_holds_every_setting(site):
    from scrapy.settings import default_settings

    settings = read_settings()
    names = {s.name for s in settings}
    import topiccrawler.settings as module

    imported = {"TRACKING_PARAMETERS"}  # from topiccrawler.urls: the default of a setting
    assert names == {name for name in vars(module) if name.isupper()} - imported
    undocumented = [
        s.name for s in settings if not s.meaning and not hasattr(default_settings, s.name)
    ]
    assert not undocumented, f"settings without a comment in settings.py: {undocumented}"
    page = (site / "reference" / "settings" / "index.html").read_text(encoding="utf-8")
    for setting in settings:
        assert f"<code>{setting.name}</code>" in page, setting.name
    table = markdown()
    assert table.count("\n| `") == len(settings)
    assert SCRAPY_OWN in table  # Scrapy's own settings say so rather than nothing


def bash_commands(text: str) -> list[str]:
    """The command lines of the ```bash blocks, comments cut."""
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.split("  #", 1)[0].strip()
            if line and not line.startswith("#"):
                commands.append(" ".join(line.split()))
    return commands


def test_the_readme_is_a_front_door():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 300
    for target in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (ROOT / target).is_file(), target
    shown = set(bash_commands(GETTING_STARTED.read_text(encoding="utf-8")))
    assert bash_commands(readme) and set(bash_commands(readme)) <= shown  # run below


BIRD_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>{title}</title></head>
<body><nav><a href="/birds/">Birds</a></nav><article><h1>{title}</h1>{body}</article>
{links}</body></html>"""
BIRD_PAGES = {
    "index.html": ("Bird news", "<p>News of the society.</p>", ["migration.html", "wetlands.html", "cars.html"]),
    "migration.html": ("Migration season along the flyway",
                       "<p>Birdwatchers counted migratory flocks along the flyway. Nesting pairs of "
                       "endangered waders returned to the protected reserve, where breeding "
                       "success is declining. Migration counts help the sanctuary plan.</p>" * 3, []),
    "wetlands.html": ("Wetlands saved for nesting birds",
                      "<p>The marshes and estuaries of the reserve are protected now. Birders and "
                      "ornithologists report nesting and breeding of threatened species; the "
                      "wetlands are a sanctuary on the migration flyway.</p>" * 3, []),
    "cars.html": ("Car park opening hours", "<p>The car park opens at eight.</p>", []),
}  # fmt: skip


def bird_site(root: Path) -> Path:
    folder = root / "birds"
    folder.mkdir(parents=True)
    for name, (title, body, links) in BIRD_PAGES.items():
        anchors = "".join(f'<p><a href="{link}">{BIRD_PAGES[link][0]}</a></p>' for link in links)
        page = BIRD_PAGE.format(title=title, body=body, links=anchors)
        (folder / name).write_text(page, encoding="utf-8")
    return root


def test_the_first_crawl_of_getting_started_runs_as_shown(tmp_path):
    """Each command of the page's first crawl, in its order, in a new project folder; the edit
    step writes the page's two TOML files, with the seed's example site replaced by a bird site
    on loopback (the only change)."""
    text = GETTING_STARTED.read_text(encoding="utf-8")
    section = text.split("## A first crawl of your own topic", 1)[1].split("\n## ", 1)[0]
    files = {
        match.group(1): match.group(0)
        for match in re.finditer(r"# ((?:keywords|seeds)/\w+\.toml)\n.*?(?=```)", section, re.S)
    }
    assert set(files) == {"keywords/birds.toml", "seeds/birds.toml"}
    project = tmp_path / "project"
    project.mkdir()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("TOPICCRAWLER_")},
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
    }
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    ran = []
    with FixtureSite(root=bird_site(tmp_path / "site")) as site:
        for command in bash_commands(section):
            if command == "source .venv/bin/activate":
                continue  # the environment above is the venv's
            words = command.split()
            assert words[0] in ("topiccrawler", "scrapy"), command
            done = subprocess.run(words, cwd=project, env=env, capture_output=True, text=True,
                                  timeout=300)  # fmt: skip
            assert done.returncode == 0, (command, done.stdout[-2000:], done.stderr[-3000:])
            ran.append((command, done.stdout + done.stderr))
            if words[:3] == ["topiccrawler", "topics", "new"]:  # then the files are edited
                for name, content in files.items():
                    content = content.replace("https://www.example.org", site.url)
                    (project / name).write_text(content, encoding="utf-8")
        assert site.hits["/birds/migration.html"] == 1 and site.hits["/birds/wetlands.html"] == 1
    outputs = dict(ran)
    assert re.search(r"^birds\s+ok", outputs["topiccrawler topics"], re.M)
    assert "birds" in outputs["topiccrawler stats"]
    report = project / "birds-report.html"
    assert report.stat().st_size > 10_000 and "Content-Security-Policy" in report.read_text()
    engine = create_engine(f"sqlite:///{project / 'data' / 'topiccrawler.db'}")
    with Session(engine) as session:
        kept = {
            page.url.rsplit("/", 1)[1]: page.is_relevant
            for page in session.scalars(select(Page).where(Page.topic == "birds"))
        }
    engine.dispose()
    assert set(kept) == {"", "migration.html", "wetlands.html", "cars.html"}  # the site's index too
    assert kept["migration.html"] and kept["wetlands.html"] and kept["cars.html"] is False
