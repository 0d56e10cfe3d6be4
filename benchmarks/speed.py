"""Speed: our pipelines against jusText and a bare parse, against a git revision,
and the hashes that show a speed-up left every result as it was.

Usage (from the repository root)::

    python -m benchmarks.speed [CORPUS ...] [--pipelines justext,...] [--limit N] [--repeat R]
    python -m benchmarks.speed --against REV [CORPUS ...] [--every 3] [--save FILE]
    python -m benchmarks.speed --digest [CORPUS ...] [--every 7] [--save FILE]
    python -m benchmarks.speed --hashes [CORPUS ...] [--pages FILE]
    python -m benchmarks.speed --stages [CORPUS ...] [--every 3] [--repeat 3] [--save FILE]

By default (wcxb-dev beside the repository), every page is first read into
memory; then, page by page and in the same run, it times a bare
``lxml.html.document_fromstring`` parse, the jusText package (English
stoplist), and ``extract`` with each pipeline (English stoplist, and
``language="auto"`` for the first pipeline). It prints the median and total
time per page and the ratios of the medians to the bare parse and to jusText.
With ``--repeat`` each call is timed R times and the fastest counts, which
damps noise from the rest of the machine.

``--against REV`` puts the package as it is at git revision REV beside the
working tree's (copied to a temporary folder under another name) and times
both in one process, page by page, interleaved (odd pages the old one
first), with ``time.process_time``: CPU time, which other jobs on the machine
change far less than the wall-clock time the quality benchmark reports. The
cyclic garbage collector is off while a page is timed (each call starts
with a young generation collected), so that one version's garbage is not
collected in the other's time. It prints, for each corpus (by default those
beside the repository), the median of each version's time as a ratio to a
bare ``lxml.html.document_fromstring`` parse timed beside it, and the median
of the per-page ratio new / old, which is what a change gained.

``--digest`` prints a SHA-256 of every block's text, label, reason and both
scores (``repr``: every bit) and of ``result.text``, for every EVERY-th page
of each corpus: a change that should not change any result must leave it as
it is (run it before and after, and once with another ``PYTHONHASHSEED``).

``--stages`` prints where the default's time goes: for every EVERY-th
page of each corpus (by default those beside the repository), each step
of ``extract`` timed alone, the fastest of R calls (``--repeat``, 3 by
default), as a multiple of a bare parse timed beside it: our parse
(``core.parse.parse``, the decoding and clean-up with it), the block walk
(``core.blocks.segment``), the rest of ``build_document`` (lower-casing,
the language, the words and stopwords), each stage of the pipeline in its
order, and ``extract(...).text`` whole. Each row is the median of the
per-page multiples; the last row, the whole call, is the median page's.

``--hashes`` prints the SHA-256 of every page's Markdown and metadata, per
corpus (wcxb-dev, dragnet and l3s-gn1 by default): ``extract(html, url)`` with
the default options, then ``result.markdown``, the Markdown with images and
without links, and ``result.metadata``; a page the limits refuse counts as
refused. One line per corpus, then one over all; ``--pages FILE`` also writes
one line per page (corpus/id and its hash), to find the pages that changed
with ``diff``.
"""

import argparse
import gc
import gzip
import hashlib
import importlib.util
import json
import math
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.corpus import (
    CORPORA,
    SAVE_HELP,
    bare_parse,
    default_corpora,
    default_corpus_path,
    load_pages,
    save_output,
)
from scrapy_declutter import DeclutterError, extract
from scrapy_declutter.core.blocks import segment
from scrapy_declutter.core.document import build_document
from scrapy_declutter.core.options import Options
from scrapy_declutter.core.parse import parse
from scrapy_declutter.extraction.presets import build_pipeline
from scrapy_declutter.outputs.markdown import to_markdown

REPO = Path(__file__).resolve().parents[1]
OLD_PACKAGE = "declutter_at_revision"


# -- pipelines against jusText and a bare parse ------------------------------------


def _justext(html: bytes) -> str:
    import justext

    stoplist = justext.get_stoplist("English")
    return "\n\n".join(p.text for p in justext.justext(html, stoplist) if not p.is_boilerplate)


def contenders(pipelines: list[str]) -> dict[str, Callable[[bytes], object]]:
    runs: dict[str, Callable[[bytes], object]] = {"lxml parse": bare_parse}
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


def pipelines(corpus: Path, names: list[str], limit: int | None, repeat: int) -> None:
    pages = [page.html for page in load_pages(corpus, limit=limit)]
    runs = contenders(names)
    times: dict[str, list[float]] = {name: [] for name in runs}
    for html in pages:
        for name, run in runs.items():
            elapsed = best_time(run, html, repeat)
            if elapsed is not None:
                times[name].append(elapsed)
    parse_median = statistics.median(times["lxml parse"])
    reference = times.get("justext package")
    print(f"{len(pages)} pages, best of {repeat}")
    print(f"{'':28}{'median ms':>10}{'total s':>9}{'x parse':>9}{'justext / x':>13}")
    for name, values in times.items():
        median = statistics.median(values)
        vs_justext = f"{statistics.median(reference) / median:13.1f}" if reference else ""
        vs_parse = median / parse_median
        print(f"{name:28}{median * 1000:10.2f}{sum(values):9.2f}{vs_parse:9.2f}{vs_justext}")


# -- where a page's time goes -------------------------------------------------------


def stages(corpus: Path, every: int, repeat: int) -> None:
    """Print each step's median multiple of a bare parse (see the module's docstring)."""
    pipeline = build_pipeline(Options())
    steps: dict[str, list[float]] = {}
    for i, page in enumerate(load_pages(corpus)):
        took = page_steps(page.html, pipeline.stages, repeat) if i % every == 0 else None
        for name, multiple in (took or {}).items():
            steps.setdefault(name, []).append(multiple)
    pages = len(next(iter(steps.values()), []))
    print(f"{corpus.name}: {pages} pages, fastest of {repeat}; the median page's multiple")
    print("of a bare parse for each step, then for the whole call")
    for name, multiples in steps.items():
        print(f"  {name:34}{statistics.median(multiples):7.2f}")


def page_steps(html: bytes, pipeline: tuple, repeat: int) -> dict[str, float] | None:
    """Each step's fastest time on one page over its bare parse's; ``None``
    for a page the limits refuse or that holds nothing."""
    try:
        root = parse(html)
    except DeclutterError:
        return None
    if root is None:
        return None
    took = {
        "our parse": _fastest(repeat, parse, html),
        "block walk": _fastest(repeat, segment, root),
        "build_document": _fastest(repeat, lambda: build_document(html, language="auto")),
    }
    took["words, stopwords, language"] = (
        took.pop("build_document") - took["our parse"] - took["block walk"]
    )
    names = [getattr(stage, "name", type(stage).__name__) for stage in pipeline]
    took.update(dict.fromkeys(names, math.inf))
    for _ in range(repeat):  # each stage on the document the stages before it made
        document = build_document(html, language="auto")
        for name, stage in zip(names, pipeline):
            start = time.perf_counter()
            stage(document)
            took[name] = min(took[name], time.perf_counter() - start)
    took["extract(...).text, whole"] = _fastest(repeat, lambda: extract(html).text)
    bare = _fastest(repeat, bare_parse, html)
    return {name: seconds / bare for name, seconds in took.items()}


def _fastest(repeat: int, run: Callable, *args: object) -> float:
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        run(*args)
        best = min(best, time.perf_counter() - start)
    return best


# -- against a git revision ----------------------------------------------------------


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
    # the old package is imported from the temporary folder, under its own name
    spec = importlib.util.spec_from_file_location(
        OLD_PACKAGE, package / "__init__.py", submodule_search_locations=[str(package)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[OLD_PACKAGE] = module
    spec.loader.exec_module(module)
    return module.extract


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
        parse.append(cpu_time(bare_parse, html))
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


# -- the same results ----------------------------------------------------------------


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


def page_hash(html: bytes, url: str | None) -> str:
    try:
        result = extract(html, url)
    except DeclutterError as error:
        return f"refused {type(error).__name__}"
    images_no_links = to_markdown(
        result.blocks,
        result.root,
        result.url,
        links=False,
        images=True,
        all_buttons=result.all_buttons,
    )
    metadata = json.dumps(result.metadata.to_dict(), sort_keys=True)
    data = "\x00".join([result.markdown, images_no_links, metadata])
    return hashlib.sha256(data.encode()).hexdigest()


def hashes(corpora: list[Path], pages: Path | None) -> None:
    lines = []
    overall = hashlib.sha256()
    for corpus in corpora:
        sha = hashlib.sha256()
        for path in sorted((corpus / "html").glob("*.html.gz")):
            file_id = path.name.removesuffix(".html.gz")
            truth = json.loads((corpus / "ground-truth" / f"{file_id}.json").read_text("utf-8"))
            html = gzip.decompress(path.read_bytes())
            line = f"{corpus.name}/{file_id}\t{page_hash(html, truth.get('url'))}"
            lines.append(line)
            sha.update(line.encode())
            overall.update(line.encode())
        print(f"{corpus.name:10} {sha.hexdigest()}")
    print(f"{'all':10} {overall.hexdigest()}")
    if pages:
        pages.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="*", type=Path)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--against", metavar="REV", help="time against this git revision")
    mode.add_argument("--digest", action="store_true", help="print the results' SHA-256")
    mode.add_argument("--hashes", action="store_true", help="print the Markdown's SHA-256")
    mode.add_argument("--stages", action="store_true", help="print where a page's time goes")
    parser.add_argument("--pipelines", default="justext")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--repeat", type=int, help="timings of a call (1; 3 for --stages)")
    parser.add_argument("--every", type=int, help="every N-th page (default 3; 7 for --digest)")
    parser.add_argument("--pages", type=Path, help="--hashes: also write each page's hash here")
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    if args.hashes:
        beside = default_corpus_path().parent
        hashes(args.corpora or [beside / name for name in CORPORA[:3]], args.pages)
    elif args.digest:
        for corpus in args.corpora or default_corpora():
            print(f"{corpus.name}: {digest(corpus, args.every or 7)}")
    elif args.stages:
        for corpus in args.corpora or default_corpora():
            stages(corpus, args.every or 3, args.repeat or 3)
    elif args.against:
        with tempfile.TemporaryDirectory() as folder:
            old = package_at(args.against, Path(folder))
            for corpus in args.corpora or default_corpora():
                compare(corpus, old, args.every or 3)
    else:
        for corpus in args.corpora or [default_corpus_path()]:
            pipelines(corpus, args.pipelines.split(","), args.limit, args.repeat or 1)


if __name__ == "__main__":
    main()
