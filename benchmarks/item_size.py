"""Item and log size of a crawl with only the add-on line, as a new user runs it.

Serves the first ``--pages`` wcxb-dev pages from a local HTTP server and crawls
them with a spider that yields ``{"url": ...}`` per page, in a fresh process per
variant, with Scrapy's default log level (DEBUG: every item is logged in full).
The variants are the add-on line alone, then with each ``-s NAME=VALUE`` given.
Reports, per variant: items, the JSON lines feed's bytes, the text's and the
blocks' share of it, and the log's bytes.

    python -m benchmarks.item_size [CORPUS] --pages 20 -s DECLUTTER_BLOCKS=all [--save FILE]

CORPUS defaults to ``<repo>/../shared/corpora/wcxb-dev`` (its ``html/*.html.gz``).
"""

import argparse
import functools
import gzip
import http.server
import json
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from benchmarks.corpus import SAVE_HELP, default_corpus_path, save_output

REPO = Path(__file__).resolve().parents[1]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def serve(directory: Path) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(QuietHandler, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def crawl(urls: list[str], workdir: Path, extra: dict[str, str]) -> None:
    """Run in a child process: one crawl, items to ``items.jsonl``, log to ``crawl.log``."""
    import scrapy
    from scrapy.crawler import CrawlerProcess

    class Pages(scrapy.Spider):
        name = "pages"
        start_urls = urls

        def parse(self, response):
            yield {"url": response.url}

    process = CrawlerProcess(
        {
            "ADDONS": {"scrapy_declutter.Addon": 100},  # the one line
            "FEEDS": {str(workdir / "items.jsonl"): {"format": "jsonlines"}},
            "LOG_FILE": str(workdir / "crawl.log"),
            "TELNETCONSOLE_ENABLED": False,
            **extra,
        }
    )
    process.crawl(Pages)
    process.start()


def measure(urls: list[str], extra: dict[str, str]) -> dict[str, int]:
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        code = (
            "import sys, json; from benchmarks import item_size; "
            "item_size.crawl(json.loads(sys.argv[1]), __import__('pathlib').Path(sys.argv[2]), "
            "json.loads(sys.argv[3]))"
        )
        subprocess.run(
            [
                sys.executable,
                "-c",
                code,
                json.dumps(urls),
                tmp,
                json.dumps(extra),
            ],
            check=True,
            cwd=REPO,
            env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
        )
        lines = (workdir / "items.jsonl").read_text(encoding="utf-8").splitlines()
        items = [json.loads(line) for line in lines]
        return {
            "items": len(items),
            "item_bytes": sum(len(line.encode()) + 1 for line in lines),
            "text_bytes": sum(
                len(json.dumps(i.get("text", ""), ensure_ascii=False).encode()) for i in items
            ),
            "blocks_bytes": sum(
                len(json.dumps(i.get("blocks", []), ensure_ascii=False).encode()) for i in items
            ),
            "blocks": sum(len(i.get("blocks", [])) for i in items),
            "log_bytes": (workdir / "crawl.log").stat().st_size,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=default_corpus_path())
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("-s", dest="settings", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    with tempfile.TemporaryDirectory() as site:
        for path in sorted(Path(args.corpus, "html").glob("*.html.gz"))[: args.pages]:
            Path(site, path.name.removesuffix(".gz")).write_bytes(
                gzip.decompress(path.read_bytes())
            )
        server = serve(Path(site))
        base = f"http://127.0.0.1:{server.server_address[1]}"
        urls = [f"{base}/{name}" for name in sorted(p.name for p in Path(site).iterdir())]
        variants = [{}] + [dict([s.split("=", 1)]) for s in args.settings]
        print(
            f"{len(urls)} wcxb-dev pages, the add-on line only (+ the setting shown), "
            "LOG_LEVEL DEBUG"
        )
        print(
            f"{'variant':28} {'items':>5} {'item kB':>8} {'text kB':>8} {'blocks kB':>9} "
            f"{'blocks':>6} {'log kB':>7} {'item/text':>9}"
        )
        for extra in variants:
            m = measure(urls, extra)
            name = " ".join(f"{k}={v}" for k, v in extra.items()) or "add-on only"
            print(
                f"{name:28} {m['items']:5} {m['item_bytes'] / 1000:8.1f} "
                f"{m['text_bytes'] / 1000:8.1f} {m['blocks_bytes'] / 1000:9.1f} {m['blocks']:6} "
                f"{m['log_bytes'] / 1000:7.1f} {m['item_bytes'] / max(m['text_bytes'], 1):9.1f}"
            )
        server.shutdown()


if __name__ == "__main__":
    main()
