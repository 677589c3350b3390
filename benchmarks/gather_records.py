"""Rebuild the held-out record pages (benchmarks/records_heldout/labels.toml) from the public
repositories they come from, into a cache folder outside this repository: third-party pages
stay out of it, only our labels are kept here.

    .venv/bin/python benchmarks/gather_records.py [--cache DIR] [--mirrors DIR] [--labels FILE]

Each page is a file at one commit of a public GitHub repository (a saved page kept as a test
fixture); it is read with `git show COMMIT:PATH` from a local clone of that repository under
`--mirrors` (`<owner>+<name>/repo`, the layout /work/.mirror has; a plain `git clone` of
https://github.com/OWNER/NAME into `<owner>+<name>/repo` does as well) and written to
`<cache>/<key>.html`. The pages were gathered after the record rules were written: nobody
wrote a rule seeing them before they were labelled (docs/benchmarks.md says what changed after).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tomllib
from pathlib import Path

LABELS = Path(__file__).resolve().parent / "records_heldout" / "labels.toml"
CACHE = Path.home() / ".cache" / "topiccrawler" / "records-heldout"
MIRRORS = Path("/work/.mirror")


def pages(labels_file: Path = LABELS) -> list[dict]:
    """The labelled pages: key, source (repo, commit, path), URL, software, kind, language and
    the records our labels give."""
    with open(labels_file, "rb") as labels:
        return tomllib.load(labels)["page"]


def git_dir(mirrors: Path, repo: str) -> Path:
    """The git directory of a local clone of `repo` ("owner/name") under `mirrors`."""
    clone = mirrors / repo.replace("/", "+") / "repo"
    return clone / ".git" if (clone / ".git").is_dir() else clone


def gather(cache: Path, mirrors: Path, labels: Path = LABELS) -> list[str]:
    """Write every labelled page into `cache`; the keys of those that could not be read."""
    cache.mkdir(parents=True, exist_ok=True)
    missing = []
    for page in pages(labels):
        where = git_dir(mirrors, page["repo"])
        shown = subprocess.run(
            ["git", "--git-dir", str(where), "show", f"{page['commit']}:{page['path']}"],
            capture_output=True,
        )
        if shown.returncode != 0:
            missing.append(f"{page['key']}: {page['repo']} at {page['commit'][:12]} not in {where}")
            continue
        (cache / f"{page['key']}.html").write_bytes(shown.stdout)
    return missing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=CACHE, help=f"default {CACHE}")
    parser.add_argument("--mirrors", type=Path, default=MIRRORS, help=f"default {MIRRORS}")
    parser.add_argument(
        "--labels", type=Path, default=LABELS, help="another labels file (a new gathering's)"
    )
    args = parser.parse_args()
    missing = gather(args.cache, args.mirrors, args.labels)
    for line in missing:
        print(f"missing {line}", file=sys.stderr)
    print(f"{len(pages(args.labels)) - len(missing)} pages in {args.cache}")
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
