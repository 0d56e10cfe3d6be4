"""The default pipeline's quality on a fixed corpus sample must not regress.

``quality_baseline.json`` records the mean F1 measured on that sample when the
model or the stages last changed on purpose; re-record it then with
``python tests/test_quality_gate.py`` (and say why in the commit).
"""

import json
import statistics
import sys
from pathlib import Path

from benchmarks.corpus import load_pages, score
from scrapy_declutter import extract
from scrapy_declutter.core.errors import DeclutterError

BASELINE = Path(__file__).with_name("quality_baseline.json")
ALLOWED_DROP = 0.01


def sample_f1(corpus: Path, sample: int, seed: int) -> float:
    pages = load_pages(corpus, sample=sample, seed=seed)
    scores = [score(_text(p.html, p.url), p) for p in pages]
    return statistics.fmean(s.f1 for s in scores if s.f1 is not None)


def _text(html: bytes, url: str | None) -> str:
    try:
        return extract(html, url=url).text
    except DeclutterError:  # a page over the parse limits is refused: nothing kept
        return ""


def test_default_pipeline_f1_does_not_drop(corpus_path):
    baseline = json.loads(BASELINE.read_text())
    f1 = sample_f1(corpus_path, baseline["sample"], baseline["seed"])
    assert f1 >= baseline["f1"] - ALLOWED_DROP, (
        f"F1 {f1:.4f} < recorded {baseline['f1']:.4f} - {ALLOWED_DROP}"
    )


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.conftest import CORPUS

    record = {"sample": 200, "seed": 11}
    record["f1"] = round(sample_f1(CORPUS, **record), 4)
    BASELINE.write_text(json.dumps(record, indent=2) + "\n")
    print(record)
