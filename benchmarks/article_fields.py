"""The page object's ``Article`` against our ``metadata`` on wcxb-dev's references.

    python -m benchmarks.article_fields [CORPUS] [--limit N] [--save FILE]

For every page: the extraction the page object's provider runs
(``extract_page`` on a ``Page`` asking for the metadata and the article
probability), then the ``Article`` that ``DeclutterArticlePage`` builds from
it, and, from the same result, the ``metadata`` dict the add-on writes into
items. Each field is scored against the reference with
``benchmarks/structure.py``'s rules (the title's words equal, the author's
words one inside the other's, the date's day equal), the ``Article``'s
authors' names joined by ``"; "`` and its ``datePublished`` cut to the day. Then how
well ``metadata.probability`` tells the corpus's article pages from the
others: the mean for each, and the area under the ROC curve. Needs the
``poet`` extra.
"""

import argparse
import asyncio
import gzip
import json
from pathlib import Path

from web_poet import HttpResponse

from benchmarks.corpus import SAVE_HELP, default_corpus_path, page_ids, save_output
from benchmarks.structure import author_right, date_right, title_right
from scrapy_declutter.core.options import Options
from scrapy_declutter.scrapy_layer.page import Page, extract_page
from scrapy_declutter.scrapy_layer.poet import DeclutterArticlePage, DeclutterResult

FIELDS = {
    # name: (reference key, rule, the metadata's value, the Article's value)
    "headline": ("title", title_right, lambda m: m.get("title"), lambda a: a.headline),
    "author": (
        "author",
        author_right,
        lambda m: m.get("author"),
        lambda a: "; ".join(x.name for x in a.authors or ()) or None,
    ),
    "date": (
        "publish_date",
        date_right,
        lambda m: m.get("date"),
        lambda a: a.datePublished[:10] if a.datePublished else None,
    ),
}


def article_of(html: bytes, url: str, data: dict):
    response = HttpResponse(url=url, body=html, encoding="utf-8")
    page = DeclutterArticlePage(response=response, declutter=DeclutterResult(data))
    return asyncio.run(page.to_item())


def auc(positives: list[float], negatives: list[float]) -> float:
    """The probability that a random positive scores above a random negative."""
    pairs = len(positives) * len(negatives)
    above = sum((p > n) + 0.5 * (p == n) for p in positives for n in negatives)
    return above / pairs if pairs else float("nan")


def run(corpus: Path, limit: int | None) -> None:
    ids = page_ids(corpus)[:limit]
    options = Options()
    right = {name: {"metadata": 0, "Article": 0, "pages": 0} for name in FIELDS}
    differ = {name: 0 for name in FIELDS}
    probability: dict[bool, list[float]] = {True: [], False: []}
    failed = 0
    for file_id in ids:
        record = json.loads((corpus / "ground-truth" / f"{file_id}.json").read_text("utf-8"))
        html = gzip.decompress((corpus / "html" / f"{file_id}.html.gz").read_bytes())
        url = record.get("url") or f"https://example.org/{file_id}"
        page = Page(html, url, options, "kept", metadata=True, article_probability=True)
        try:
            data, _, _ = extract_page(page)
        except Exception:  # a page the limits refuse: no Article fields either
            failed += 1
            continue
        article = article_of(html, url, data)
        metadata = data["metadata"]
        for name, (key, rule, of_metadata, of_article) in FIELDS.items():
            ours, theirs = of_metadata(metadata), of_article(article)
            differ[name] += ours != theirs
            want = record["ground_truth"].get(key)
            if want:
                right[name]["pages"] += 1
                right[name]["metadata"] += rule(ours, want)
                right[name]["Article"] += rule(theirs, want)
        kind = record.get("_internal", {}).get("page_type", {}).get("primary")
        probability[kind == "article"].append(article.metadata.probability)
    print(f"{corpus.name}, {len(ids)} pages, {failed} refused by the limits")
    print(f"{'field':10} {'pages':>6} {'metadata':>9} {'Article':>8} {'values differ':>14}")
    for name, counts in right.items():
        pages = counts["pages"]
        print(
            f"{name:10} {pages:6d} {counts['metadata'] / pages:9.3f} "
            f"{counts['Article'] / pages:8.3f} {differ[name]:14d}"
        )
    articles, others = probability[True], probability[False]
    print(
        f"metadata.probability: mean {sum(articles) / len(articles):.3f} on {len(articles)} "
        f"article pages, {sum(others) / len(others):.3f} on {len(others)} others; "
        f"ROC AUC {auc(articles, others):.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=default_corpus_path())
    parser.add_argument("--limit", type=int)
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    run(args.corpus, args.limit)


if __name__ == "__main__":
    main()
