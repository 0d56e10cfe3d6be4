import os
from collections.abc import Iterator
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
