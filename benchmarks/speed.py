"""Time per page of our pipelines against the jusText package and a bare parse.

Usage::

    python benchmarks/speed.py [CORPUS] [--pipelines justext,...] [--limit N] [--repeat R]

Every page is first read into memory; then, page by page and in the same
run, it times a bare ``lxml.html.document_fromstring`` parse, the jusText
package (English stoplist), and ``extract`` with each pipeline (English
stoplist, and ``language="auto"`` for the first pipeline). It prints the median
and total time per page and the ratios of the medians to the bare parse and to
jusText. With ``--repeat`` each call is timed R times and the fastest counts,
which damps noise from the rest of the machine.
"""

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import lxml.html

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.corpus import default_corpus_path, load_pages
from benchmarks.saved_output import SAVE_HELP, save_output
from scrapy_declutter import extract


def _justext(html: bytes) -> str:
    import justext

    stoplist = justext.get_stoplist("English")
    return "\n\n".join(p.text for p in justext.justext(html, stoplist) if not p.is_boilerplate)


def contenders(pipelines: list[str]) -> dict[str, Callable[[bytes], object]]:
    runs: dict[str, Callable[[bytes], object]] = {"lxml parse": lxml.html.document_fromstring}
    try:
        import justext  # noqa: F401

        runs["justext package"] = _justext
    except ImportError:
        print("justext not installed: skipped")
    for i, name in enumerate(pipelines):
        runs[f"{name} (English)"] = lambda h, n=name: extract(h, pipeline=n, language="English")
        if i == 0:
            runs[f"{name} (auto)"] = lambda h, n=name: extract(h, pipeline=n)
    return runs


def best_time(run: Callable[[bytes], object], html: bytes, repeat: int) -> float | None:
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            run(html)
        except Exception:  # the reference fails on a few pages; they are not timed
            return None
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=str(default_corpus_path()))
    parser.add_argument("--pipelines", default="justext")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    pages = [page.html for page in load_pages(Path(args.corpus), limit=args.limit)]
    runs = contenders(args.pipelines.split(","))
    times: dict[str, list[float]] = {name: [] for name in runs}
    for html in pages:
        for name, run in runs.items():
            elapsed = best_time(run, html, args.repeat)
            if elapsed is not None:
                times[name].append(elapsed)
    parse_median = statistics.median(times["lxml parse"])
    reference = times.get("justext package")
    print(f"{len(pages)} pages, best of {args.repeat}")
    print(f"{'':28}{'median ms':>10}{'total s':>9}{'x parse':>9}{'justext / x':>13}")
    for name, values in times.items():
        median = statistics.median(values)
        vs_justext = f"{statistics.median(reference) / median:13.1f}" if reference else ""
        vs_parse = median / parse_median
        print(f"{name:28}{median * 1000:10.2f}{sum(values):9.2f}{vs_parse:9.2f}{vs_justext}")


if __name__ == "__main__":
    main()
