import functools
import http.server
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from benchmarks.corpus import default_corpus_path
from tests.site import Server, build_site

# Beside the repository, unless WCXB_DEV points elsewhere (a git worktree, say).
CORPUS = Path(os.environ.get("WCXB_DEV") or default_corpus_path())


@pytest.fixture(scope="session")
def corpus_path() -> Path:
    """The wcxb-dev corpus; tests that need it skip without it."""
    if not (CORPUS / "html").is_dir():
        pytest.skip(
            "wcxb-dev corpus not found: optional, see 'Tests that need a corpus' in "
            "docs/development.rst (../shared/corpora/wcxb-dev beside the checkout, or $WCXB_DEV)"
        )
    return CORPUS


@pytest.fixture
def server() -> Iterator[Server]:
    """The test site (``tests/site.py``) on 127.0.0.1, for crawls in the test reactor."""
    server = Server(build_site())
    yield server
    server.port.stopListening()


@pytest.fixture
def threaded_site(tmp_path) -> Iterator[Callable[[dict[str, bytes]], tuple[str, list[str]]]]:
    """Serves files on 127.0.0.1 from a thread, for a crawl run in a subprocess
    (the test process's reactor does not run while it waits): call it with
    ``{name: body}``; it gives the site's URL and the list of paths requested."""
    servers = []

    def serve(files: dict[str, bytes]) -> tuple[str, list[str]]:
        root = tmp_path / f"site{len(servers)}"
        root.mkdir()
        for name, body in files.items():
            (root / name).write_bytes(body)
        requested: list[str] = []

        class Handler(http.server.SimpleHTTPRequestHandler):
            def do_GET(self):
                requested.append(self.path)
                super().do_GET()

            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Handler, directory=root)
        )
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}", requested

    yield serve
    for server in servers:
        server.shutdown()
