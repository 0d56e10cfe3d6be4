"""Speed work on a shared machine: faster than a revision, and the same results?

Usage::

    python benchmarks/paired_speed.py --against main [CORPUS ...] [--every 3] [--save FILE]
    python benchmarks/paired_speed.py --digest [CORPUS ...] [--every 7] [--save FILE]

``--against REV`` puts the package as it is at git revision REV beside the
working tree's (copied to a temporary folder under another name) and times
both in one process, page by page, interleaved (odd pages the old one
first), with ``time.process_time``: CPU time, which other jobs on the machine
change far less than the wall-clock time the quality benchmark reports. The
cyclic garbage collector is off while a page is timed (each call starts
with a young generation collected), so that one version's garbage is not
collected in the other's time. It prints, for each corpus, the median of
each version's time as a ratio to a bare ``lxml.html.document_fromstring``
parse timed beside it, and the median of the per-page ratio new / old,
which is what a change gained.

``--digest`` prints a SHA-256 of every block's text, label, reason and both
scores (``repr``: every bit) and of ``result.text``, for every EVERY-th page
of each corpus: a change that should not change any result must leave it as
it is (run it before and after, and once with another ``PYTHONHASHSEED``).
"""

import argparse
import gc
import hashlib
import importlib
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import lxml.html

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from benchmarks.corpus import default_corpora, load_pages  # noqa: E402
from benchmarks.saved_output import SAVE_HELP, save_output  # noqa: E402
from scrapy_declutter import extract  # noqa: E402

OLD_PACKAGE = "declutter_at_revision"


def package_at(revision: str, folder: Path) -> Callable:
    """``extract`` of the package as it is at ``revision``, imported from ``folder``."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", revision, "scrapy_declutter"],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    package = folder / OLD_PACKAGE
    (folder / "scrapy_declutter").rename(package)
    for module in package.rglob("*.py"):
        module.write_text(module.read_text("utf-8").replace("scrapy_declutter", OLD_PACKAGE))
    sys.path.insert(0, str(folder))
    return importlib.import_module(OLD_PACKAGE).extract


def cpu_time(run: Callable, html: bytes) -> float:
    gc.enable()
    gc.collect(0)
    gc.disable()
    start = time.process_time()
    try:
        run(html)
    except Exception:  # a page either version refuses is timed up to the refusal
        pass
    elapsed = time.process_time() - start
    gc.enable()
    return elapsed


def compare(corpus: Path, old: Callable, every: int) -> None:
    pages = [p.html for i, p in enumerate(load_pages(corpus)) if i % every == 0]
    parse, old_times, new_times = [], [], []
    for i, html in enumerate(pages):
        parse.append(cpu_time(lxml.html.document_fromstring, html))
        if i % 2:
            old_times.append(cpu_time(old, html))
            new_times.append(cpu_time(extract, html))
        else:
            new_times.append(cpu_time(extract, html))
            old_times.append(cpu_time(old, html))
    bare = statistics.median(parse)
    gained = statistics.median(n / o for n, o in zip(new_times, old_times) if o > 0)
    print(
        f"{corpus.name}: {len(pages)} pages, bare parse median {bare * 1000:.2f} ms; "
        f"old {statistics.median(old_times) / bare:.2f}x, new "
        f"{statistics.median(new_times) / bare:.2f}x a bare parse; "
        f"median page new / old {gained:.3f}"
    )


def digest(corpus: Path, every: int) -> str:
    sha = hashlib.sha256()
    for i, page in enumerate(load_pages(corpus)):
        if i % every:
            continue
        try:
            result = extract(page.html, url=page.url)
        except Exception as exc:
            sha.update(f"{type(exc).__name__}: {exc}".encode())
            continue
        for b in result.blocks:
            fields = (b.text, b.label, b.reason, repr(b.score), repr(b.block_score))
            sha.update("\0".join(map(str, fields)).encode("utf-8", "surrogatepass") + b"\1")
        sha.update(result.text.encode("utf-8", "surrogatepass") + b"\2")
    return sha.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="*", type=Path)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--against", metavar="REV", help="time against this git revision")
    mode.add_argument("--digest", action="store_true", help="print the results' SHA-256")
    parser.add_argument("--every", type=int, help="every N-th page (default 3; 7 for --digest)")
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    corpora = args.corpora or default_corpora()
    if args.digest:
        for corpus in corpora:
            print(f"{corpus.name}: {digest(corpus, args.every or 7)}")
        return
    with tempfile.TemporaryDirectory() as folder:
        old = package_at(args.against, Path(folder))
        for corpus in corpora:
            compare(corpus, old, args.every or 3)


if __name__ == "__main__":
    main()
