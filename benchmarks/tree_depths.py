"""Precision, recall and F1 of our pipelines, the tree filter at every depth.

Usage::

    python benchmarks/tree_depths.py [CORPUS] [--limit N] [--sample N]

Runs ``extract`` (``language="auto"``) with ``justext``, ``justext+tree``,
``boilerpipe-article``, ``boilerpipe-article+tree``, ``boilerpipe-default``
and ``density``, the two tree pipelines with ``tree_depth`` 1 to 5, on every
page, and prints the word-level precision / recall / F1 of ``corpus.py``
(averaged over pages) for the whole corpus and for each page type. It shows
whether the tree filter's paper holds here: the filter should raise precision
on articles, and depth 2 should be best.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.corpus import Score, aggregate, default_corpus_path, load_pages, score
from benchmarks.saved_output import SAVE_HELP, save_output
from scrapy_declutter import extract

TREE_DEPTHS = range(1, 6)


def configurations() -> list[tuple[str, dict]]:
    """(row name, ``extract`` keyword arguments), in the order they are printed."""
    rows = [("justext", {"pipeline": "justext"})]
    rows += [
        (f"justext+tree d={d}", {"pipeline": "justext+tree", "tree_depth": d}) for d in TREE_DEPTHS
    ]
    rows.append(("boilerpipe-article", {"pipeline": "boilerpipe-article"}))
    rows += [
        (f"boilerpipe-article+tree d={d}", {"pipeline": "boilerpipe-article+tree", "tree_depth": d})
        for d in TREE_DEPTHS
    ]
    rows.append(("boilerpipe-default", {"pipeline": "boilerpipe-default"}))
    rows.append(("density", {"pipeline": "density"}))
    return rows


def table(title: str, summaries: dict[str, object]) -> str:
    lines = [f"{title}", f"{'':32}{'P':>7}{'R':>7}{'F1':>7}"]
    for name, summary in summaries.items():
        lines.append(f"{name:32}{summary.precision:7.3f}{summary.recall:7.3f}{summary.f1:7.3f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=str(default_corpus_path()))
    parser.add_argument("--limit", type=int)
    parser.add_argument("--sample", type=int)
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    rows = configurations()
    scores: dict[str, list[Score]] = {name: [] for name, _ in rows}
    pages = 0
    for page in load_pages(Path(args.corpus), limit=args.limit, sample=args.sample):
        pages += 1
        for name, options in rows:
            scores[name].append(score(extract(page.html, url=page.url, **options).text, page))
    aggregates = {name: aggregate(page_scores) for name, page_scores in scores.items()}
    first = next(iter(aggregates.values()))
    print(f"{pages} pages; word-level P / R / F1 averaged over pages\n")
    print(
        table(
            f"all pages ({first.overall.scored} scored)",
            {n: a.overall for n, a in aggregates.items()},
        )
    )
    for page_type, summary in first.by_type.items():
        print()
        print(
            table(
                f"{page_type} ({summary.scored} scored)",
                {n: a.by_type[page_type] for n, a in aggregates.items()},
            )
        )


if __name__ == "__main__":
    main()
