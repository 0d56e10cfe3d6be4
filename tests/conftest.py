import os
from pathlib import Path

import pytest

from benchmarks.corpus import default_corpus_path

# Beside the repository, unless WCXB_DEV points elsewhere (a git worktree, say).
CORPUS = Path(os.environ.get("WCXB_DEV") or default_corpus_path())


@pytest.fixture(scope="session")
def corpus_path() -> Path:
    """The wcxb-dev corpus; tests that need it skip without it."""
    if not (CORPUS / "html").is_dir():
        pytest.skip("wcxb-dev corpus not found (beside the repository, or at $WCXB_DEV)")
    return CORPUS
