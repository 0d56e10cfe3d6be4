"""Time and peak memory of ``extract`` on the big hostile pages.

Usage::

    python benchmarks/hostile.py [--case NAME ...] [--pipeline NAME]

Each case runs twice, each time in a fresh process (so one case's peak does
not hide the next's): once for the seconds, the blocks and the process's peak
resident memory (``ru_maxrss``, which includes lxml's tree in C) above its
resident memory before the call, with the page already in memory; once under
``tracemalloc`` (which slows Python down several times) for the peak of
Python's own allocations during ``extract``.
"""

import argparse
import json
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

CASES = {
    "50 MB article": lambda h: h.big_page(50),
    "100,000 nested <div>": lambda h: h.nested(100_000),
    "100,000 unclosed <span>": lambda h: h.nested(100_000, "span", closed=False),
    "1,000,000 sibling <p>": lambda h: h.siblings(1_000_000),
    "100,000 <br>": lambda h: h.breaks(100_000),
    "20 MB text node": lambda h: h.huge_text(20),
}


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def measure(case: str, pipeline: str, traced: bool) -> dict:
    from scrapy_declutter import extract
    from tests import hostile

    html = CASES[case](hostile)
    extract("<p>warm up: imports and stoplists</p>", pipeline=pipeline)
    if traced:
        tracemalloc.start()
        extract(html, pipeline=pipeline)
        return {"traced_mb": tracemalloc.get_traced_memory()[1] / 2**20}
    before = rss_mb()
    start = time.perf_counter()
    result = extract(html, pipeline=pipeline)
    seconds = time.perf_counter() - start
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "case": case,
        "mb": len(html.encode()) / 1e6,
        "seconds": seconds,
        "blocks": len(result.blocks),
        "rss_mb": peak_rss - before,
    }


def child(case: str, pipeline: str, traced: bool) -> dict:
    command = [sys.executable, __file__, "--child", case, "--pipeline", pipeline]
    out = subprocess.run(
        command + ["--traced"] * traced, check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", choices=list(CASES))
    parser.add_argument("--pipeline", default="justext+tree")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--traced", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.pipeline, args.traced)))
        return
    print(f"pipeline {args.pipeline}")
    columns = ("input MB", 9), ("seconds", 8), ("blocks", 9), ("py peak MB", 11), ("RSS +MB", 8)
    print(f"{'case':26}" + "".join(f" {name:>{width}}" for name, width in columns))
    for case in args.case or CASES:
        r = {**child(case, args.pipeline, False), **child(case, args.pipeline, True)}
        print(
            f"{r['case']:26} {r['mb']:9.1f} {r['seconds']:8.2f} {r['blocks']:9,} "
            f"{r['traced_mb']:11.0f} {r['rss_mb']:8.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
