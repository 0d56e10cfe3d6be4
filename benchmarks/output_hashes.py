"""The sha256 of every page's Markdown and metadata, per corpus: a change meant
to keep the output (a speed-up) must leave them equal.

Usage (from the repository root)::

    python benchmarks/output_hashes.py [CORPUS ...] [--pages FILE]

CORPUS defaults to wcxb-dev, dragnet and l3s-gn1 beside the repository
(``../shared/corpora/``). For each page: ``extract(html, url)`` with the
default options, then ``result.markdown``, the Markdown with images and
without links, and ``result.metadata``; a page the limits refuse counts as
refused. One line per corpus, then one over all; ``--pages FILE`` also writes
one line per page (corpus/id and its hash), to find the pages that changed
with ``diff``.
"""

import argparse
import gzip
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.corpus import CORPORA, default_corpus_path
from scrapy_declutter import DeclutterError, extract
from scrapy_declutter.core.markdown import to_markdown


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    beside = default_corpus_path().parent
    parser.add_argument("corpora", nargs="*", default=[str(beside / name) for name in CORPORA])
    parser.add_argument("--pages", type=Path, help="also write each page's hash to this file")
    args = parser.parse_args()
    lines = []
    overall = hashlib.sha256()
    for corpus in map(Path, args.corpora):
        digest = hashlib.sha256()
        for path in sorted((corpus / "html").glob("*.html.gz")):
            file_id = path.name.removesuffix(".html.gz")
            truth = json.loads((corpus / "ground-truth" / f"{file_id}.json").read_text("utf-8"))
            html = gzip.decompress(path.read_bytes())
            line = f"{corpus.name}/{file_id}\t{page_hash(html, truth.get('url'))}"
            lines.append(line)
            digest.update(line.encode())
            overall.update(line.encode())
        print(f"{corpus.name:10} {digest.hexdigest()}")
    print(f"{'all':10} {overall.hexdigest()}")
    if args.pages:
        args.pages.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
