"""The documentation: the MkDocs site builds with --strict (a broken link or a page missing from
the navigation fails), the settings reference holds every setting of topiccrawler/settings.py,
the README stays a front door, the pages a user reads refer to nothing outside the repository,
every keyword and seed file shown loads, and the commands of Getting started run as shown."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
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


# Pages for developers may say where the benchmark data lives beside a checkout; a user's clone
# has only the repository, so no other page may send a reader outside it.
DEVELOPER_DOCS = (ROOT / "docs" / "development", ROOT / "docs" / "benchmarks.md")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)")
CLIMBING_PATH = re.compile(r"(?<![\w/.~])\.\./[^\s)`'\"<>]*")  # written from the checkout
OUTSIDE_NAMES = re.compile(r"/work/|\bSPEC\b|\bshared/(?:SPEC|bench|papers|lexicons|STYLE)")


def user_docs() -> list[Path]:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [p for p in pages if not any(p == d or p.is_relative_to(d) for d in DEVELOPER_DOCS)]


def outside_references(page: Path, text: str) -> list[str]:
    """Links that resolve outside the repository, paths that climb out of the checkout, and
    names of what sits beside a developer's checkout (the spec, the bench, the papers)."""
    found = []
    for target in LINK.findall(text):
        if re.match(r"[a-zA-Z][\w+.-]*:|#", target):
            continue  # a URL or an anchor of the page
        if not (page.parent / target.split("#", 1)[0]).resolve().is_relative_to(ROOT):
            found.append(target)
    prose = LINK.sub("", text)
    return found + CLIMBING_PATH.findall(prose) + OUTSIDE_NAMES.findall(prose)


def test_no_user_facing_page_refers_to_a_path_outside_the_repository():
    assert outside_references(
        ROOT / "docs" / "index.md",
        "summarised in `../shared/SPEC.md` (beside the checkout); [spec](../../SPEC.md), "
        "[settings](reference/settings.md), [docs](https://www.mkdocs.org/), data in /work/x",
    ) == ["../../SPEC.md", "../shared/SPEC.md", "shared/SPEC", "/work/"]  # the check itself
    pages = user_docs()
    assert ROOT / "README.md" in pages and ROOT / "docs" / "methods" / "index.md" in pages
    assert not any(p.is_relative_to(ROOT / "docs" / "development") for p in pages)
    found = {
        str(page.relative_to(ROOT)): refs
        for page in pages
        if (refs := outside_references(page, page.read_text(encoding="utf-8")))
    }
    assert not found, f"pages a user reads refer to paths outside the repository: {found}"


KEYWORD_TABLES = {"topic", "examples", "subjects", "domain_terms", "judgement_words"}
SEED_TABLES = {"authority", "search", "engines", "login"}


def toml_examples() -> list[tuple[str, str]]:
    """(where, text) of every ```toml block of the README and the docs."""
    found = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        blocks = re.findall(r"```toml\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
        found += [(f"{page.relative_to(ROOT)} block {n}", b) for n, b in enumerate(blocks, 1)]
    return found


def test_every_keyword_and_seed_file_shown_loads(tmp_path):
    """Each example is written to a file and loaded as the crawl loads topic files. A part of a
    file shown alone is completed as little as the loader needs: an `[examples]` table gets one
    placeholder term (and the saved pages it names, empty), a `[[login]]` one placeholder site;
    what is checked is the part shown."""
    from topiccrawler.topics.files import TopicFileError, load_keyword_file, load_seed_file

    loaded = {"keywords": 0, "seeds": 0}
    for n, (where, text) in enumerate(toml_examples()):
        tables = set(tomllib.loads(text))
        folder = tmp_path / str(n)
        folder.mkdir()
        try:
            if tables <= SEED_TABLES:
                if not tables & {"authority", "search"}:
                    text += '\n[[authority]]\nstart_urls = ["https://www.example.org/"]\n'
                load_seed_file(_write(folder, text))
                loaded["seeds"] += 1
            elif tables <= KEYWORD_TABLES:
                if not tables & {"subjects", "domain_terms"}:
                    text += '\n[subjects]\n"placeholder term" = []\n'
                for names in tomllib.loads(text).get("examples", {}).values():
                    for name in names:
                        (folder / name).parent.mkdir(parents=True, exist_ok=True)
                        (folder / name).touch()
                load_keyword_file(_write(folder, text))
                loaded["keywords"] += 1
        except TopicFileError as exc:
            pytest.fail(f"{where} does not load: {exc}")
    assert loaded["keywords"] >= 4 and loaded["seeds"] >= 5, loaded


def _write(folder: Path, text: str) -> Path:
    path = folder / "example.toml"
    path.write_text(text, encoding="utf-8")
    return path


def first_crawl_files(text: str) -> dict[str, str]:
    """The keyword and seed files of a page's first crawl, by the name in their first line."""
    section = text.split("## A first crawl of your own topic", 1)[1].split("\n## ", 1)[0]
    return {
        match.group(1): match.group(0)
        for match in re.finditer(r"# ((?:keywords|seeds)/\w+\.toml)\n.*?(?=```)", section, re.S)
    }


def test_the_first_crawl_files_are_what_topics_new_writes_filled_in(tmp_path):
    """The README's and Getting started's bird files are the starter files of `topiccrawler
    topics new birds --language en` with words and a site written in: the same [topic] keys,
    language and threshold, and the same search engines."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOPICCRAWLER_")}
    env.pop("SCRAPY_SETTINGS_MODULE", None)  # a new folder, as a user starts one
    done = subprocess.run(
        [str(BIN / "topiccrawler"), "topics", "new", "birds", "--language", "en"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    keywords = tomllib.loads((tmp_path / "keywords" / "birds.toml").read_text(encoding="utf-8"))
    seeds = tomllib.loads((tmp_path / "seeds" / "birds.toml").read_text(encoding="utf-8"))
    for page in (ROOT / "README.md", GETTING_STARTED):
        files = first_crawl_files(page.read_text(encoding="utf-8"))
        shown = tomllib.loads(files["keywords/birds.toml"])
        assert shown["topic"].keys() == keywords["topic"].keys(), page.name
        for key in ("language", "threshold"):
            assert shown["topic"][key] == keywords["topic"][key], (page.name, key)
        shown = tomllib.loads(files["seeds/birds.toml"])
        assert shown["search"] == seeds["search"], page.name
        assert shown["engines"] == seeds["engines"], page.name


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


# Bing's result page as the seed file's engine gets it, served by the bird site (`/search.html`).
BIRD_SEARCH = """<!doctype html><html><head><meta charset="utf-8"><title>birds - Search</title>
</head><body><ol id="b_results">{hits}</ol></body></html>"""
BIRD_HIT = """<li class="b_algo"><h2><a href="/birds/{name}">{title}</a></h2>
<div class="b_caption"><p>{title}, news of the bird society.</p></div></li>"""


def bird_site(root: Path) -> Path:
    folder = root / "birds"
    folder.mkdir(parents=True)
    for name, (title, body, links) in BIRD_PAGES.items():
        anchors = "".join(f'<p><a href="{link}">{BIRD_PAGES[link][0]}</a></p>' for link in links)
        page = BIRD_PAGE.format(title=title, body=body, links=anchors)
        (folder / name).write_text(page, encoding="utf-8")
    hits = "".join(
        BIRD_HIT.format(name=name, title=BIRD_PAGES[name][0])
        for name in ("migration.html", "wetlands.html")
    )
    (root / "search.html").write_text(BIRD_SEARCH.format(hits=hits), encoding="utf-8")
    return root


def test_the_first_crawl_of_getting_started_runs_as_shown(tmp_path):
    """Each command of the page's first crawl, in its order, in a new project folder; the edit
    step writes the page's two TOML files, with the seed's example site replaced by a bird site
    on loopback and Bing by that site's result page (the only changes)."""
    text = GETTING_STARTED.read_text(encoding="utf-8")
    section = text.split("## A first crawl of your own topic", 1)[1].split("\n## ", 1)[0]
    files = first_crawl_files(text)
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
            words = shlex.split(command)
            assert words[0] in ("topiccrawler", "scrapy"), command
            done = subprocess.run(words, cwd=project, env=env, capture_output=True, text=True,
                                  timeout=300)  # fmt: skip
            assert done.returncode == 0, (command, done.stdout[-2000:], done.stderr[-3000:])
            ran.append((command, done.stdout + done.stderr))
            if words[:3] == ["topiccrawler", "topics", "new"]:  # then the files are edited
                for name, content in files.items():
                    content = content.replace("https://www.example.org", site.url)
                    bing = 'type = "bing"\n'
                    assert name.startswith("keywords") or bing in content
                    content = content.replace(bing, f'{bing}url = "{site.url}/search.html"\n')
                    (project / name).write_text(content, encoding="utf-8")
        assert site.hits["/birds/migration.html"] == 1 and site.hits["/birds/wetlands.html"] == 1
        assert site.hits["/search.html"] >= 1  # the terms were searched with the seed's engine
    outputs = dict(ran)
    assert re.search(r"^birds\s+ok", outputs["topiccrawler topics"], re.M)
    assert "birds" in outputs["topiccrawler stats"]
    found = outputs["topiccrawler search 'nesting wetlands' --topic birds"]
    assert "/birds/wetlands.html" in found and "/birds/migration.html" not in found
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
