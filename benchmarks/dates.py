"""Publication dates: our metadata against htmldate, on wcxb-dev's ``publish_date``.

Usage (from the repository root)::

    python benchmarks/dates.py [CORPUS] [--limit N]

For every page whose ground truth has a ``publish_date``: the date of
``extract(html, url).metadata`` and that of ``htmldate.find_date`` (the
library trafilatura uses), given the page as text, with ``original_date=True``
and ``extensive_search`` off and on. A date is right when it is the same
``YYYY-MM-DD``. Time per page: ours is reading ``metadata`` off a fresh
result (the extraction is not counted: it is made anyway); htmldate's includes
its own parse of the page, as it would run. Medians over the pages.
"""

import argparse
import gzip
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.corpus import default_corpus_path, page_ids
from benchmarks.saved_output import SAVE_HELP, save_output
from scrapy_declutter import DeclutterError, extract


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=str(default_corpus_path()))
    parser.add_argument("--limit", type=int)
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    from htmldate import find_date

    corpus = Path(args.corpus)
    right: dict[str, list[bool]] = {}
    seconds: dict[str, list[float]] = {}
    for file_id in page_ids(corpus)[: args.limit]:
        truth = json.loads((corpus / "ground-truth" / f"{file_id}.json").read_text("utf-8"))
        want = truth["ground_truth"].get("publish_date")
        if not want:
            continue
        html = gzip.decompress((corpus / "html" / f"{file_id}.html.gz").read_bytes())
        try:
            result = extract(html, truth.get("url"))
        except DeclutterError:  # refused by the page limits: no date, not timed
            found = {"declutter metadata": None}
        else:
            start = time.perf_counter()
            found = {"declutter metadata": result.metadata.date}
            seconds.setdefault("declutter metadata", []).append(time.perf_counter() - start)
        text = html.decode("utf-8", "replace")
        for name, extensive in (("htmldate", False), ("htmldate, extensive", True)):
            start = time.perf_counter()
            try:
                found[name] = find_date(text, original_date=True, extensive_search=extensive)
            except Exception:  # a page it cannot read counts as no date
                found[name] = None
            seconds.setdefault(name, []).append(time.perf_counter() - start)
        for name, date in found.items():
            right.setdefault(name, []).append(bool(date) and date[:10] == want[:10])
    pages = len(next(iter(right.values())))
    print(f"wcxb-dev pages with a publish_date: {pages}")
    print(f"{'':24}{'accuracy':>10}{'median ms':>11}")
    for name in right:
        accuracy = sum(right[name]) / pages
        print(f"{name:24}{accuracy:10.3f}{statistics.median(seconds[name]) * 1000:11.2f}")


if __name__ == "__main__":
    main()
