"""Rebuild the public English main-content sets (L3S-GN1, Dragnet, CleanEval) into a cache folder
outside this repository, in the layout of ../shared/bench/body (`<set>/<stem>.html` with the gold
text beside it in `<set>/<stem>.txt`), for `benchmarks/body.py --sets l3s dragnet cleaneval`.

    .venv/bin/python benchmarks/gather_bodies.py [--cache DIR] [--mirrors DIR] [--sets ...]

Each set is read with `git archive` at a fixed commit from a local clone of the public GitHub
repository named below, under `--mirrors` (`<owner>+<name>/repo`, the layout /work/.mirror has;
a plain `git clone` of https://github.com/OWNER/NAME into `<owner>+<name>/repo` does as well).
Third-party pages never enter this repository: they are written to the cache only.

How each gold text is derived (faithful to the set's own format):

* l3s (L3S-GN1, Kohlschütter et al., WSDM 2010; 621 Google News articles, 408 sites), from
  geodrome/page-signal, folder L3S-GN1-20100130203947-00001 (the dataset's own HTML conversion of
  its WARC: `original/<uuid>.html` is the crawled page, `annotated/<uuid>.html` the assessed one).
  The annotators' labels are `<span class="x-nc-selN">` around text blocks: 0 not content,
  1 headline, 2 full text, 3 supplemental (captions and the like), 4 related content,
  5 comments. Gold = every text node of the annotated page, in document order, whose nearest
  labelled ancestor span is sel1, sel2 or sel3 (headline + full text + supplemental, the
  "main content" of the paper and of the web-content-extraction-benchmark's reader; nested
  spans are counted once, through the innermost label), one block a line. Text inside
  `x-nc-invisible` elements, scripts and styles is left out.
* dragnet (Moz's Dragnet set, Bohrnstedt 2012, 1381 pages: its own pages and the CETR news
  pages converted), gold from seomoz/dragnet_data `dragnet_Corrected.tar.gz`
  (`Corrected/<stem>.html.corrected.txt`, the text hand-pasted from the page); the HTML from
  j-szulc/html-cleaning-dataset-merged `dragnet_data/input/<stem>.html` (seomoz's HTML archive
  is over the mirror's file-size limit; the merged repository mirrors it under the same
  names). The Corrected files put user comments after the line `!@#$%^&*()  COMMENTS`; the
  README says text before it is the main article, so gold = the text before that marker
  (hand-typed variants of the marker included), whole file where there is none. Files are
  read as UTF-16 when they start with its byte-order mark, else UTF-8, else cp1252.
* cleaneval (CleanEval 2007 English, final test set and development set, 681 + 58 pages), from
  j-szulc/html-cleaning-dataset-merged `cleaneval-final` and `cleaneval-dev`
  (`input/<n>.html`, `GoldStandard/<n>.txt`; stems are prefixed `final-` / `dev-`). The input
  pages carry CleanEval's `<text id=... title=... encoding=...>` wrapper line and `</text>`,
  which are the corpus container and not the page: they are cut off. The cleaned gold starts
  with a `URL: ...` line and marks each block with `<p>`, `<h>` or `<l>` (paragraph, heading,
  list item): the URL line is dropped and each markup tag becomes a line break, leaving the
  cleaned text. Input pages without a gold file are skipped.
"""

from __future__ import annotations

import argparse
import io
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

CACHE = Path.home() / ".cache" / "topiccrawler" / "bodies-heldout"
MIRRORS = Path("/work/.mirror")
SETS = ("l3s", "dragnet", "cleaneval")

PAGE_SIGNAL = ("geodrome/page-signal", "186d8153b3d111f84865ddc180600a9cbe35ac7f")
MERGED = ("j-szulc/html-cleaning-dataset-merged", "46e01a04b47051838a228bf23631430b2c9de375")
DRAGNET = ("seomoz/dragnet_data", "95559bee8812387d8e2cca2e8090004319ab9602")
L3S_FOLDER = "L3S-GN1-20100130203947-00001"


def git_dir(mirrors: Path, repo: str) -> Path:
    """The git directory of a local clone of `repo` ("owner/name") under `mirrors`."""
    clone = mirrors / repo.replace("/", "+") / "repo"
    return clone / ".git" if (clone / ".git").is_dir() else clone


def archive(mirrors: Path, source: tuple[str, str], *paths: str) -> dict[str, bytes]:
    """Every file under `paths` of the repository at its commit: path -> bytes."""
    repo, commit = source
    done = subprocess.run(
        ["git", "--git-dir", str(git_dir(mirrors, repo)), "archive", "--format=tar", commit,
         *paths],
        capture_output=True,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"{repo} at {commit[:12]}: {done.stderr.decode(errors='replace')}")
    files = {}
    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as tar:
        for member in tar:
            if member.isfile():
                files[member.name] = tar.extractfile(member).read()
    return files


def read_text(data: bytes) -> str:
    """A gold file's text: UTF-16 with a byte-order mark, else UTF-8, else cp1252."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


# -- L3S-GN1 ------------------------------------------------------------------------------------

_LABEL = re.compile(r"\bx-nc-sel(\d)\b")
L3S_CONTENT = {"1", "2", "3"}  # headline, full text, supplemental


def l3s_gold(annotated: bytes) -> str:
    """The headline, full text and supplemental blocks of an annotated L3S-GN1 page."""
    from lxml import html as lxml_html

    from topiccrawler.extract.encoding import decode_html

    _, text = decode_html(annotated)
    root = lxml_html.document_fromstring(text)
    blocks: list[str] = []

    def walk(element, label: str | None, hidden: bool) -> None:
        if not isinstance(element.tag, str) or element.tag in ("script", "style"):
            return
        classes = element.get("class") or ""
        found = _LABEL.search(classes)
        label = found.group(1) if found else label
        hidden = hidden or "x-nc-invisible" in classes
        if element.text and label in L3S_CONTENT and not hidden:
            blocks.append(element.text)
        for child in element:
            walk(child, label, hidden)
            if child.tail and label in L3S_CONTENT and not hidden:
                blocks.append(child.tail)

    walk(root, None, False)
    lines = (" ".join(block.split()) for block in blocks)
    return "\n".join(line for line in lines if line)


def gather_l3s(mirrors: Path, out: Path) -> int:
    files = archive(mirrors, PAGE_SIGNAL, f"{L3S_FOLDER}/original", f"{L3S_FOLDER}/annotated")
    count = 0
    for path, page in sorted(files.items()):
        if "/original/" not in path or not path.endswith(".html"):
            continue
        annotated = files.get(path.replace("/original/", "/annotated/"))
        if annotated is None:
            continue
        stem = Path(path).stem
        (out / f"{stem}.html").write_bytes(page)
        (out / f"{stem}.txt").write_text(l3s_gold(annotated), encoding="utf-8")
        count += 1
    return count


# -- Dragnet ------------------------------------------------------------------------------------

# The marker was typed by hand: '!@#$%^&*()  COMMENTS' and variants ('!@ $%^&*()', one space).
_COMMENTS = re.compile(r"^[ \t]*[!@#$%^&*() ]{6,}[ \t]*COMMENTS[ \t]*$", re.MULTILINE)


def dragnet_gold(corrected: bytes) -> str:
    """The main article of a Corrected file: its text before the comments marker."""
    return _COMMENTS.split(read_text(corrected), maxsplit=1)[0]


def gather_dragnet(mirrors: Path, out: Path) -> int:
    repo, commit = DRAGNET
    shown = subprocess.run(
        ["git", "--git-dir", str(git_dir(mirrors, repo)), "show",
         f"{commit}:dragnet_Corrected.tar.gz"],
        capture_output=True,
    )  # fmt: skip
    if shown.returncode != 0:
        raise SystemExit(f"{repo} at {commit[:12]}: {shown.stderr.decode(errors='replace')}")
    corrected = {}
    with tarfile.open(fileobj=io.BytesIO(shown.stdout), mode="r:gz") as tar:
        for member in tar:
            name = Path(member.name).name
            if member.isfile() and name.endswith(".html.corrected.txt"):
                corrected[name.removesuffix(".html.corrected.txt")] = tar.extractfile(member).read()
    pages = archive(mirrors, MERGED, "dragnet_data/input")
    count = 0
    for path, page in sorted(pages.items()):
        stem = Path(path).stem
        if not path.endswith(".html") or stem not in corrected:
            continue
        (out / f"{stem}.html").write_bytes(page)
        (out / f"{stem}.txt").write_text(dragnet_gold(corrected[stem]), encoding="utf-8")
        count += 1
    return count


# -- CleanEval ----------------------------------------------------------------------------------

_WRAPPER = re.compile(rb"\A\s*<text\b[^>]*>|</text>\s*\Z", re.IGNORECASE)
_URL_LINE = re.compile(r"\A\s*URL:[^\n]*\n")
_MARKUP = re.compile(r"<(?:p|h|l)>", re.IGNORECASE)


def cleaneval_gold(cleaned: bytes) -> str:
    """A cleaned CleanEval file's text: the URL line dropped, `<p>`/`<h>`/`<l>` as line breaks."""
    text = _URL_LINE.sub("", read_text(cleaned).replace("\r\n", "\n"))
    return _MARKUP.sub("\n", text)


def gather_cleaneval(mirrors: Path, out: Path) -> int:
    count = 0
    for folder, prefix in (("cleaneval-final", "final"), ("cleaneval-dev", "dev")):
        files = archive(mirrors, MERGED, f"{folder}/input", f"{folder}/GoldStandard")
        for path, page in sorted(files.items()):
            if "/input/" not in path or not path.endswith(".html"):
                continue
            gold = files.get(f"{folder}/GoldStandard/{Path(path).stem}.txt")
            if gold is None:
                continue
            stem = f"{prefix}-{Path(path).stem}"
            (out / f"{stem}.html").write_bytes(_WRAPPER.sub(b"", page))
            (out / f"{stem}.txt").write_text(cleaneval_gold(gold), encoding="utf-8")
            count += 1
    return count


GATHER = {"l3s": gather_l3s, "dragnet": gather_dragnet, "cleaneval": gather_cleaneval}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=CACHE, help=f"default {CACHE}")
    parser.add_argument("--mirrors", type=Path, default=MIRRORS, help=f"default {MIRRORS}")
    parser.add_argument("--sets", nargs="+", choices=SETS, default=list(SETS))
    args = parser.parse_args()
    for name in args.sets:
        out = args.cache / name
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        print(f"{name}: {GATHER[name](args.mirrors, out)} pages in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
