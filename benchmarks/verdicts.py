"""Page-level relevance: which stored pages are kept, against the truth of the web.

    .venv/bin/python benchmarks/verdicts.py [--seeds 2 3 4] [--homophily 0.5 0.8]
                                            [--thresholds none 0.04] [--workdir DIR]
    .venv/bin/python benchmarks/verdicts.py --workers 2   # two processes a crawl (Redis, PostgreSQL)
    .venv/bin/python benchmarks/verdicts.py --titles   # the THUCNews dev titles, self-trained

Testbed (../shared/bench/crawl): for every web (seed S, homophily H) one crawl of the whole web
with the project's defaults per threshold: `none` writes the topic file without η (η estimated
from the crawl's own scores, the page classifier beside it), a number writes that η. The kept
decision of every stored article page (`pages.is_relevant`) is scored against the web's truth
(`pages.jsonl`: `is_target`): precision, recall, F1, the ROC AUC of the stored score, and the
best single η in hindsight (the F1 a user who knew the truth would have had with one number).
Nothing here is tuned on the web it scores: η and the classifier are learnt during each crawl.

`--sandbox`: the project's sandbox web (--size, default large), the demo's entrances (three
authority sites, both search engines), the tax topic with RELEVANCE_THRESHOLD set to each of
--thresholds (`none`: "auto"), every stored page scored against the sandbox's truth.

`--cost`: time per page of the score alone and of the whole verdict (score, η, classifier) on
the testbed's article texts (web seed 2, H 0.8), after one pass that fits η and the classifier;
and the process's memory after a third of --pages more verdicts and after all of them (the texts
again and again, each under a new URL).

`--titles`: relevance/thucnews-titles-dev.txt, for the three benchmark topics
(benchmarks/topics/*.toml, written before looking at the titles): the library's scores, η
estimated from them, and the page classifier trained on the titles' own confident verdicts (no
label is read), against η chosen in hindsight; and, as ceilings, a linear SVM trained on the
titles' TRUE labels (the pool's, and five folds over all titles).
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harvest import ROOT, TESTBED, TESTBED_SETTINGS, make_web, setting_arguments  # noqa: E402

TIMEOUT = 900
SCHEMAS: list[str] = []  # PostgreSQL schemas of shared crawls, dropped at the end


def crawl(web_dir: Path, folder: Path, threshold: str, extra: list[str], workers: int = 1) -> str:
    """One crawl of the web with the project's defaults and the testbed's politeness
    overrides; the database's URL. With `workers` > 1, that many processes crawl the web as one
    shared crawl (the loopback Redis, a fresh PostgreSQL schema)."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    convert = [sys.executable, str(TESTBED / "to_topiccrawler.py"), "{topic}", str(folder)]
    convert += ["--threshold", threshold]
    database = f"sqlite:///{folder / 'crawl.db'}"
    shared = {}
    if workers > 1:
        from workers import REDIS, fresh_schema

        schema, database = fresh_schema()
        SCHEMAS.append(schema)
        shared = {"REDIS_URL": REDIS, "REDIS_CRAWL_NAME": f"verdicts-{uuid.uuid4().hex[:8]}"}
    scrapys = []
    for worker in range(workers):
        settings = {
            "DATABASE_URL": database,
            **TESTBED_SETTINGS,
            **shared,
            "LOG_FILE": str(folder / f"scrapy{worker or ''}.log"),
            "ALLOWED_ADDRESSES": "127.0.0.1:{port}",
            **dict(setting.split("=", 1) for setting in extra),
        }
        scrapy = [".venv/bin/scrapy", "crawl", "topic"]
        scrapy += ["-a", f"keywords={folder / 'keywords.toml'}"]
        scrapy += ["-a", f"seeds={folder / 'seeds.toml'}", *setting_arguments(settings)]
        scrapys.append(shlex.join(scrapy))
    together = scrapys[0] if workers == 1 else "{ " + " & ".join(scrapys) + " & wait; }"
    command = [
        sys.executable, str(TESTBED / "run_crawl.py"), "--web", str(web_dir),
        "--log", str(folder / "access.jsonl"), "--timeout", str(TIMEOUT), "--",
        "sh", "-c", f"{shlex.join(convert)} && cd {shlex.quote(str(ROOT))} && {together}",
    ]  # fmt: skip
    with (folder / "run_crawl.out").open("w", encoding="utf-8") as out:
        subprocess.run(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, check=True)
    return database


def verdict_figures(truth: list[bool], kept: list[bool], scores: list[float]) -> dict:
    from sklearn.metrics import precision_recall_curve, roc_auc_score

    tp = sum(t and k for t, k in zip(truth, kept, strict=True))
    precision = tp / sum(kept) if sum(kept) else 0.0
    recall = tp / sum(truth) if sum(truth) else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    curve_p, curve_r, cuts = precision_recall_curve(truth, scores)
    f1s = [
        2 * p * r / (p + r) if p + r else 0.0
        for p, r in zip(curve_p[:-1], curve_r[:-1], strict=True)
    ]
    best = max(range(len(f1s)), key=f1s.__getitem__)
    return {
        "pages": len(truth),
        "relevant": sum(truth),
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "auc": roc_auc_score(truth, scores) if 0 < sum(truth) < len(truth) else None,
        "best_f1": f1s[best],
        "best_threshold": float(cuts[best]),
    }


def score_crawl(web_dir: Path, database: str) -> dict:
    """The stored verdicts of the web's article pages against its truth (`database`: its URL)."""
    from sqlalchemy import create_engine, text

    truth = {}
    with (web_dir / "pages.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            if row["kind"] == "article":
                truth[row["url"]] = bool(row["is_target"])
    engine = create_engine(database)
    with engine.connect() as connection:
        rows = connection.execute(
            text("SELECT url, relevance, is_relevant, relevance_detail FROM pages")
        ).all()
    engine.dispose()
    labels, kept, scores, threshold = [], [], [], None
    for url, score, is_relevant, detail in rows:
        path = urlsplit(url).path
        if path in truth and score is not None:
            labels.append(truth[path])
            kept.append(bool(is_relevant))
            scores.append(score)
            if isinstance(detail, str):
                detail = json.loads(detail)
            threshold = (detail or {}).get("threshold", threshold)
    figures = verdict_figures(labels, kept, scores)
    figures["threshold"] = threshold
    return figures


def testbed(args: argparse.Namespace) -> int:
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="verdicts-"))
    results: dict[str, list[dict]] = {t: [] for t in args.thresholds}
    print(f"{'web':14} {'η given':8} {'η used':>7} {'P':>6} {'R':>6} {'F1':>6} {'AUC':>6} "
          f"{'best F1':>8} {'at η':>7} {'h@50':>5} {'h@100':>5} {'s':>5}")  # fmt: skip
    for seed in args.seeds:
        for homophily in args.homophily:
            web_dir = make_web(seed, homophily, workdir)
            for threshold in args.thresholds:
                folder = workdir / f"verdicts-{seed}-{homophily}-{threshold}"
                started = time.monotonic()
                database = crawl(web_dir, folder, threshold, args.set, args.workers)
                wall = time.monotonic() - started
                figures = score_crawl(web_dir, database)
                harvest = json.loads((folder / "access.harvest.json").read_text(encoding="utf-8"))
                figures["h@50"] = next(h for n, h, _, _ in harvest["curve"] if n == 50)
                figures["h@100"] = harvest["harvest"]["100"]
                results[threshold].append(figures)
                used = figures["threshold"]
                print(
                    f"S={seed} H={homophily:<6} {threshold:8} "
                    f"{'-' if used is None else f'{used:.4f}':>7} {figures['precision']:6.3f} "
                    f"{figures['recall']:6.3f} {figures['f1']:6.3f} {figures['auc'] or 0:6.3f} "
                    f"{figures['best_f1']:8.3f} {figures['best_threshold']:7.4f} "
                    f"{figures['h@50']:5.2f} {figures['h@100']:5.2f} {wall:5.0f}",
                    flush=True,
                )
    print("\nmeans over the webs")
    for threshold, rows in results.items():
        if rows:
            keys = ("precision", "recall", "f1", "h@50", "h@100")
            mean = {k: statistics.mean(r[k] for r in rows) for k in keys}
            print(
                f"η {threshold:6}: P {mean['precision']:.3f}  R {mean['recall']:.3f}  "
                f"F1 {mean['f1']:.3f}  lowest F1 {min(r['f1'] for r in rows):.3f}  "
                f"h@50 {mean['h@50']:.3f}  h@100 {mean['h@100']:.3f}  "
                f"best single η in hindsight, mean F1 {statistics.mean(r['best_f1'] for r in rows):.3f}"
            )
    if not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    if SCHEMAS:
        from workers import drop_schema

        for schema in SCHEMAS:
            drop_schema(schema)
    return 0


def sandbox(args: argparse.Namespace) -> int:
    import os

    from topiccrawler.sandbox.demo import (
        crawl_command,
        sandbox_crawl_settings,
        sandbox_login_env,
        sandbox_seed_file,
    )
    from topiccrawler.sandbox.server import SandboxServer
    from topiccrawler.sandbox.truth import truth_for
    from topiccrawler.sandbox.web import build_web

    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="verdicts-sandbox-"))
    web = build_web(1, args.size)
    print(f"sandbox ({args.size}): {'η given':8} {'η used':>7} {'P':>6} {'R':>6} {'F1':>6} "
          f"{'AUC':>6} {'best F1':>8} {'at η':>7} {'s':>5}")  # fmt: skip
    with SandboxServer(web) as server:
        for threshold in args.thresholds:
            folder = workdir / f"sandbox-{threshold}"
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            seeds = folder / "seeds.toml"
            seeds.write_text(sandbox_seed_file(server), encoding="utf-8")
            settings = {
                **sandbox_crawl_settings(server),
                "DATABASE_URL": f"sqlite:///{folder / 'crawl.db'}",
                "RELEVANCE_THRESHOLD": "auto" if threshold == "none" else threshold,
                "LOG_FILE": str(folder / "scrapy.log"),
                "LOG_LEVEL": "INFO",
                **dict(setting.split("=", 1) for setting in args.set),
            }
            started = time.monotonic()
            subprocess.run(
                crawl_command(seeds, settings), cwd=ROOT, check=True, capture_output=True,
                env={**os.environ, **sandbox_login_env()},
            )  # fmt: skip
            wall = time.monotonic() - started
            rows = sqlite3.connect(folder / "crawl.db").execute(
                "SELECT url, relevance, is_relevant, relevance_detail FROM pages"
            )
            labels, kept, scores, used = [], [], [], None
            for url, score, is_relevant, detail in rows:
                truth = truth_for(web, url)
                if truth is not None and score is not None:
                    labels.append(bool(truth.relevant))
                    kept.append(bool(is_relevant))
                    scores.append(score)
                    used = json.loads(detail or "{}").get("threshold", used)
            f = verdict_figures(labels, kept, scores)
            print(
                f"{'':19} {threshold:8} {'-' if used is None else f'{used:.4f}':>7} "
                f"{f['precision']:6.3f} {f['recall']:6.3f} {f['f1']:6.3f} {f['auc'] or 0:6.3f} "
                f"{f['best_f1']:8.3f} {f['best_threshold']:7.4f} {wall:5.0f}   "
                f"({sum(kept)} kept of {len(kept)}, {sum(labels)} relevant)",
                flush=True,
            )
    if not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


def cost(args: argparse.Namespace) -> int:
    from topiccrawler.relevance.judge import PageJudge
    from topiccrawler.relevance.library import ConceptLibrary
    from topiccrawler.relevance.page_classifier import PageClassifier
    from topiccrawler.relevance.scorer import RelevanceScorer
    from topiccrawler.topics.model import KeywordLibrary, Term

    workdir = Path(tempfile.mkdtemp(prefix="verdicts-cost-"))
    web = make_web(2, 0.8, workdir)
    with (web / "pages.jsonl").open(encoding="utf-8") as lines:
        pages = [json.loads(line) for line in lines]
    pages = [p for p in pages if p["kind"] == "article"]
    topic = json.loads((TESTBED / "topic_finance.json").read_text(encoding="utf-8"))
    terms = tuple(
        Term(word, cls) for cls, key in (("subjects", "subjects"), ("domain_terms", "domain_terms"),
                                         ("judgement_words", "judgement"))
        for word in topic["keywords"][key]
    )  # fmt: skip
    keywords = KeywordLibrary("finance", "财经", "zh", None, terms)
    scorer = RelevanceScorer(ConceptLibrary.static(keywords))
    judge = PageJudge(scorer, None, PageClassifier(scorer.tokenizer))
    for i, page in enumerate(pages):  # fits η and the classifier
        judge.judge(f"warm-{i}", {"title": page["title"], "body": page["body"]})
    score_ms, verdict_ms = [], []
    for page in pages:
        blocks = {"title": page["title"], "body": page["body"]}
        started = time.perf_counter()
        scorer.score(blocks)
        score_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        judge.judge(page["url"], blocks)
        verdict_ms.append((time.perf_counter() - started) * 1000)
    print(f"{len(pages)} article pages, {statistics.mean(len(p['body']) for p in pages):.0f} "
          f"characters on average")  # fmt: skip
    print(f"score alone:  median {statistics.median(score_ms):.2f} ms, "
          f"mean {statistics.mean(score_ms):.2f} ms")  # fmt: skip
    print(f"whole verdict: median {statistics.median(verdict_ms):.2f} ms, "
          f"mean {statistics.mean(verdict_ms):.2f} ms (refits included)")  # fmt: skip
    rss = {}
    for n in range(args.pages):
        page = pages[n % len(pages)]
        judge.judge(f"{page['url']}?n={n}", {"title": page["title"], "body": page["body"]})
        if n + 1 in (args.pages // 3, args.pages):
            rss[n + 1] = _rss_mb()
    first, last = sorted(rss)
    print(f"process memory after {first:,} more pages {rss[first]:.0f} MB, after {last:,} "
          f"{rss[last]:.0f} MB ({len(judge.pending)} provisional pages remembered, "
          f"{len(judge.classifier.examples)} classifier examples)")  # fmt: skip
    shutil.rmtree(workdir, ignore_errors=True)
    return 0


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def titles(args: argparse.Namespace) -> int:
    """Dev titles: library score, η estimated, classifier self-trained on the titles."""
    from relevance import CLASSES, libraries, load_titles

    from topiccrawler.relevance.judge import PageJudge
    from topiccrawler.relevance.page_classifier import PageClassifier
    from topiccrawler.relevance.scorer import RelevanceScorer

    pool, test = load_titles()
    print(f"{'topic':10} {'library':16} {'P':>6} {'R':>6} {'F1':>6} {'η':>7} | hindsight F1")
    for name, label in CLASSES.items():
        for kind, library in libraries(name, pool)[0].items():
            scorer = RelevanceScorer(library)
            judge = PageJudge(scorer, None, PageClassifier(scorer.tokenizer, window=10_000))
            started = time.perf_counter()
            for i, (title, _) in enumerate(pool + test):  # what a crawl would have judged
                judge.judge(str(i), {"title": title})
            cost = (time.perf_counter() - started) / (len(pool) + len(test)) * 1000
            judge.refit()
            truth, kept, scores = [], [], []
            for title, cls in test:
                verdict_score = scorer.score({"title": title}).score
                terms = judge.classifier.terms(title, None)
                probability, _ = judge.probability(verdict_score, terms)
                truth.append(cls == label)
                kept.append(probability is not None and probability >= 0.5)
                scores.append(verdict_score)
            f = verdict_figures(truth, kept, scores)
            print(
                f"{name:10} {kind:16} {f['precision']:6.3f} {f['recall']:6.3f} {f['f1']:6.3f} "
                f"{judge.threshold or 0:7.4f} | {f['best_f1']:.3f}   {cost:.2f} ms/title"
            )
        own, svm, svm_cut = supervised_ceiling(pool, test, label)
        print(f"{name:10} {'supervised':16} best F1 {own:.3f}, linear SVM {svm:.3f} ({svm_cut:.3f} "
              "at its own cut; trained on the pool's TRUE labels: a ceiling, not a result)")  # fmt: skip
        for characters in (False, True):
            cut, best = folded_ceiling(pool + test, label, characters)
            print(f"{name:10} {'supervised, 5 folds':16} linear SVM on "
                  f"{len(pool + test) * 4 // 5:,} TRUE labels"
                  f"{' + single characters' if characters else ''}: F1 {cut:.3f} at its cut, "
                  f"{best:.3f} best")  # fmt: skip
    return 0


def supervised_ceiling(pool, test, label) -> tuple[float, float, float]:
    """Best F1 on the test titles, in hindsight, of two classifiers trained on the TRUE labels
    of the pool: the page classifier itself, and a linear SVM on the same terms' TF-IDF (the
    strongest of the supervised learners tried: logistic regression, complement naive Bayes);
    and the SVM's F1 at its own cut (no hindsight). What self-training on the library's
    verdicts can at most approach with these terms."""
    import numpy as np
    from sklearn.feature_extraction.text import TfidfTransformer
    from sklearn.svm import LinearSVC

    from topiccrawler.relevance.page_classifier import N_FEATURES, PageClassifier, presence

    classifier = PageClassifier(window=len(pool), min_per_class=1)
    for title, cls in pool:
        classifier.add(classifier.terms(title, None), 0.0, label=cls == label)
    classifier.fit(lambda score: None)
    truth = [cls == label for _, cls in test]
    scores = [classifier.probability(classifier.terms(title, None)) for title, _ in test]
    own = verdict_figures(truth, [p >= 0.5 for p in scores], scores)["best_f1"]
    rows = [classifier.indices(classifier.terms(title, None)) for title, _ in pool + test]
    matrix = TfidfTransformer(sublinear_tf=True).fit_transform(presence(rows, N_FEATURES))
    svm = LinearSVC(C=0.5, class_weight="balanced").fit(
        matrix[: len(pool)], np.array([cls == label for _, cls in pool])
    )
    margins = svm.decision_function(matrix[len(pool) :]).tolist()
    figures = verdict_figures(truth, [m >= 0 for m in margins], margins)
    return own, figures["best_f1"], figures["f1"]


def folded_ceiling(titles, label, characters: bool) -> tuple[float, float]:
    """F1 of the linear SVM of `supervised_ceiling` over all `titles`, each judged by a model
    trained on the TRUE labels of the other four fifths: at the SVM's own cut, and the best in
    hindsight. With `characters`, the titles' single Chinese characters are terms as well."""
    import numpy as np
    from sklearn.feature_extraction.text import TfidfTransformer
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.svm import LinearSVC

    from topiccrawler.relevance.page_classifier import N_FEATURES, PageClassifier, presence

    classifier = PageClassifier()
    rows = []
    for title, _ in titles:
        terms = classifier.terms(title, None)
        if characters:
            terms += [f"u:{c}" for c in set(title) if "\u4e00" <= c <= "\u9fff"]
        rows.append(classifier.indices(terms))
    matrix = TfidfTransformer(sublinear_tf=True).fit_transform(presence(rows, N_FEATURES))
    truth = np.array([cls == label for _, cls in titles])
    margins = cross_val_predict(
        LinearSVC(C=0.5, class_weight="balanced"), matrix, truth,
        cv=StratifiedKFold(5, shuffle=True, random_state=0), method="decision_function",
    ).tolist()  # fmt: skip
    figures = verdict_figures(truth.tolist(), [m >= 0 for m in margins], margins)
    return figures["f1"], figures["best_f1"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--homophily", type=float, nargs="+", default=[0.5, 0.8])
    parser.add_argument("--thresholds", nargs="+", default=["none", "0.04"])
    parser.add_argument("--workdir", help="keep webs, logs and databases here")
    parser.add_argument(
        "--workers", type=int, default=1,
        help="testbed: crawl each web with this many processes sharing Redis and PostgreSQL",
    )  # fmt: skip
    parser.add_argument("--titles", action="store_true", help="the THUCNews dev titles instead")
    parser.add_argument("--sandbox", action="store_true", help="the project's sandbox instead")
    parser.add_argument("--cost", action="store_true", help="time and memory of a verdict")
    parser.add_argument("--pages", type=int, default=30_000, help="--cost: verdicts for memory")
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE", help="a crawl setting added"
    )
    parser.add_argument("--size", default="large", choices=("small", "medium", "large"))
    args = parser.parse_args()
    if args.sandbox:
        return sandbox(args)
    if args.cost:
        return cost(args)
    if not TESTBED.exists():
        raise SystemExit(f"{TESTBED} not found: the shared bench sits beside the project")
    return titles(args) if args.titles else testbed(args)


if __name__ == "__main__":
    raise SystemExit(main())
