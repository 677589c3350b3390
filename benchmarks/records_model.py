"""Fit the signature scorer (topiccrawler/extract/records/signature.py) on the dev record pages
of ../shared/bench/records and write it as the package's small JSON model.

    .venv/bin/python benchmarks/records_model.py [--out topiccrawler/extract/records/signature_model.json]

A sibling group (see `signature.groups`) is a record group when at least half of its members,
and two or more, each match a record of the page's truth (bag-of-tokens F1 >= 0.5, the
scorer's matching); every group of the body bench's article pages (../shared/bench/body) is
a group that is not records, for the scorer to see pages without any. The model is
scikit-learn's random forest (100 trees, depth 6, leaves of 5 or more, balanced classes,
seed 0), written as plain node tuples, or with `--kind logistic`
its logistic regression over the standardised features (balanced classes, C = 1); both are
fitted deterministically (the same file each run). The forest holds up better left out
(`benchmarks/records.py --leave-out software --model-kind ...`). Its gate (the best group score
below which a page has no records) is the lowest best score of any training page that has
records, halved. `benchmarks/records.py --leave-out software` refits it per left-out
software with the same functions.
"""

from __future__ import annotations

import argparse
import copy
import csv
import json
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from topiccrawler.extract.encoding import decode_html
from topiccrawler.extract.parse import parse_html
from topiccrawler.extract.records.page import unwrap_wrapper_forms
from topiccrawler.extract.records.signature import FEATURES, MODEL_PATH, Forest, Model, groups
from topiccrawler.extract.tree import clean_tree, text_stats

BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench" / "records"
SOURCES = ("harvest", "trafilatura", "magichtml", "magichtml-forums")
MATCH = 0.5  # the scorer's threshold
BODY = BENCH.parent / "body"
# Article pages whose groups are all taken as not records: the record pages alone never show
# the scorer a page without records, and it took lists on a third of article pages for them.
ARTICLE_SETS: tuple[str, ...] = ("en-dev", "zh-dev")


@dataclass
class PageExamples:
    key: str
    fold: str  # the software it was made with (see `fold_of`)
    rows: list[list[float]]
    labels: list[int]


def fold_of(row: dict) -> str:
    """The page's software, versions left out ("phpBB 3" is phpBB); custom or unknown software
    is its site's own."""
    software = row["software"].strip()
    if not software or "unknown" in software.lower() or "custom" in software.lower():
        return "site:" + row["site"]
    words = [w for w in software.split() if not any(c.isdigit() for c in w)]
    return " ".join(words).lower() or software.lower()


def manifest(sources=SOURCES) -> list[dict]:
    with open(BENCH / "manifest.csv", encoding="utf-8") as handle:
        return [row for row in csv.DictReader(handle) if row["source"] in sources]


def _scorer():
    """The benchmark's own tokenizer (read in place)."""
    sys.path.insert(0, str(BENCH))
    from textutil import tokenize  # noqa: PLC0415

    return tokenize


def page_examples(row: dict, tokenize) -> PageExamples:
    from collections import Counter

    data = (BENCH / "data" / row["source"] / f"{row['stem']}.html").read_bytes()
    truth = json.loads(
        (BENCH / "data" / row["source"] / f"{row['stem']}.json").read_text(encoding="utf-8")
    )
    gold = [Counter(tokenize(r["text"])) for r in truth["records"]]
    root = parse_html(decode_html(data)[1])
    tree = copy.deepcopy(root)
    clean_tree(tree, unwrap=("noscript",), in_place=True, keep_times=False)  # (as it scores)
    unwrap_wrapper_forms(tree)
    body = tree.find("body")
    body = tree if body is None else body
    stats = text_stats(body)
    rows, labels = [], []
    for group in groups(body, stats):
        matched = 0
        inside = set(group.members)
        for member in group.members:
            bag = Counter(tokenize(own_text(member, inside)))
            if any(_f1(bag, g) >= MATCH for g in gold):
                matched += 1
        rows.append([group.features[f] for f in FEATURES])
        labels.append(int(matched >= 2 and matched >= len(group.members) / 2))
    return PageExamples(f"{row['source']}/{row['stem']}", fold_of(row), rows, labels)


def own_text(member, inside: set) -> str:
    """The member's text without that of other members nested in it (a comment's replies
    in a chain, `signature.chains`)."""
    parts = []

    def walk(element):
        if element.text:
            parts.append(element.text)
        for child in element:
            if child not in inside and isinstance(child.tag, str):
                walk(child)
            if child.tail:
                parts.append(child.tail)

    walk(member)
    return " ".join(parts)


def _f1(a, b) -> float:
    common = sum((a & b).values())
    if not common:
        return 0.0
    p, r = common / sum(a.values()), common / sum(b.values())
    return 2 * p * r / (p + r)


def all_examples(sources=SOURCES, articles: tuple[str, ...] = ARTICLE_SETS) -> list[PageExamples]:
    """The record pages' groups, and (`articles`: body bench sets) article pages' groups as
    groups that are not records."""
    tokenize = _scorer()
    found = [page_examples(row, tokenize) for row in manifest(sources)]
    return found + [article_examples(path) for name in articles
                    for path in sorted((BODY / name).glob("*.html"))]  # fmt: skip


def article_examples(path: Path) -> PageExamples:
    """An article page's sibling groups, none a record group (its own fold: "article")."""
    root = parse_html(decode_html(path.read_bytes())[1])
    clean_tree(root, unwrap=("noscript",), in_place=True, keep_times=False)
    unwrap_wrapper_forms(root)
    body = root.find("body")
    body = root if body is None else body
    rows = [[g.features[f] for f in FEATURES] for g in groups(body, text_stats(body))]
    return PageExamples(f"{path.parent.name}/{path.stem}", "article", rows, [0] * len(rows))


TREES = 100  # more trees than 25: the scores, and so the groups taken, move less with a refit
KIND = "forest"  # or "logistic" (--kind): the forest holds up better left out (README of #36)


def fit(pages: list[PageExamples], kind: str | None = None):
    """The model over `pages`' groups (logistic or forest), and its gate."""
    import numpy as np

    x = np.array([r for p in pages for r in p.rows], dtype=float)
    y = np.array([label for p in pages for label in p.labels])
    if (kind or KIND) == "forest":
        return _with_gate(_forest(x, y), pages)
    from sklearn.linear_model import LogisticRegression

    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    model = LogisticRegression(C=1.0, class_weight="balanced", max_iter=2000)
    model.fit((x - mean) / scale, y)
    fitted = Model(tuple(mean), tuple(scale), tuple(model.coef_[0]), float(model.intercept_[0]))
    return _with_gate(fitted, pages)


def _with_gate(fitted, pages: list[PageExamples]):
    best = [
        max(fitted.score(dict(zip(FEATURES, r, strict=True))) for r in p.rows)
        for p in pages
        if p.rows and any(p.labels)
    ]
    gate = min(best) / 2 if best else 0.0
    return replace(fitted, gate=gate)


def _forest(x, y) -> Forest:
    """A random forest (100 trees, depth 6, balanced classes, seed 0) as plain node tuples."""
    from sklearn.ensemble import RandomForestClassifier

    forest = RandomForestClassifier(
        n_estimators=TREES, max_depth=6, min_samples_leaf=5, class_weight="balanced",
        random_state=0, n_jobs=1,
    )  # fmt: skip
    forest.fit(x, y)
    trees = []
    for estimator in forest.estimators_:
        tree = estimator.tree_
        nodes = []
        for i in range(tree.node_count):
            value = tree.value[i][0]
            share = float(value[1] / value.sum()) if value.sum() else 0.0
            leaf = tree.children_left[i] < 0
            nodes.append((
                -1 if leaf else int(tree.feature[i]), 0.0 if leaf else round(float(tree.threshold[i]), 6),
                int(tree.children_left[i]), int(tree.children_right[i]), round(share, 4),
            ))  # fmt: skip
        trees.append(tuple(nodes))
    return Forest(tuple(trees))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--kind", choices=["logistic", "forest"], default=KIND)
    args = parser.parse_args()
    if not BENCH.is_dir():
        sys.exit(f"no benchmark data at {BENCH}")
    pages = all_examples()
    model = fit(pages, args.kind)
    data = model.to_dict()
    if data.get("kind") != "forest":  # the forest's numbers are rounded as made
        data = {k: [round(v, 6) for v in x] if isinstance(x, list) and k != "features" else x
                for k, x in data.items()}  # fmt: skip
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    positives = sum(sum(p.labels) for p in pages)
    total = sum(len(p.labels) for p in pages)
    print(f"{len(pages)} pages, {total} groups ({positives} record groups); gate "
          f"{model.gate:.4f}; written to {args.out}")  # fmt: skip


if __name__ == "__main__":
    main()
