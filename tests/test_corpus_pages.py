"""How the benchmarks read a corpus page's type: its own, else its corpus's."""

import gzip
import json
from pathlib import Path

from benchmarks.corpus import read_page


def corpus_with_one_page(folder: Path, record: dict) -> Path:
    (folder / "html").mkdir(parents=True)
    (folder / "ground-truth").mkdir()
    (folder / "html" / "p1.html.gz").write_bytes(gzip.compress(b"<p>A page.</p>"))
    (folder / "ground-truth" / "p1.json").write_text(json.dumps(record))
    return folder


def test_a_page_without_a_type_has_the_one_its_corpus_gives_every_page(tmp_path):
    # news-2017's records name no type; its README says every page is an article
    news = corpus_with_one_page(tmp_path / "news-2017", {"ground_truth": {"main_content": "x"}})
    assert read_page(news, "p1").page_type == "article"
    other = corpus_with_one_page(tmp_path / "other", {"ground_truth": {"main_content": "x"}})
    assert read_page(other, "p1").page_type == "unknown"


def test_a_page_s_own_type_comes_first(tmp_path):
    record = {
        "ground_truth": {"main_content": "x"},
        "_internal": {"page_type": {"primary": "category"}},
    }
    news = corpus_with_one_page(tmp_path / "news-2017", record)
    assert read_page(news, "p1").page_type == "collection"
