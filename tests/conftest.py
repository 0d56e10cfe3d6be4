from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "wcxb-dev"


@pytest.fixture(scope="session")
def corpus_path() -> Path:
    """The wcxb-dev corpus beside the repository; tests that need it skip without it."""
    if not (CORPUS / "html").is_dir():
        pytest.skip("wcxb-dev corpus not found beside the repository")
    return CORPUS
