"""The function a worker runs: one page in, a JSON-safe result out.

It lives apart from ``workers.py`` so that a worker process imports only the
core, not Scrapy or Twisted.
"""

import time

from scrapy_declutter.core.extraction import extract
from scrapy_declutter.core.options import Options


def extract_page(
    html: bytes | str,
    url: str | None,
    encoding: str | None,
    content_language: str | None,
    options: Options,
    blocks: str,
) -> tuple[dict, float]:
    """Extract one page; return its JSON-safe result and the seconds it took.

    ``blocks`` is ``"all"``, ``"kept"`` (only kept blocks) or ``"none"``.
    """
    start = time.perf_counter()
    result = extract(
        html, url, encoding=encoding, content_language=content_language, options=options
    )
    data = result.to_dict(blocks=blocks != "none")
    if blocks == "kept":
        data["blocks"] = [block for block in data["blocks"] if block["label"] == "good"]
    return data, time.perf_counter() - start
