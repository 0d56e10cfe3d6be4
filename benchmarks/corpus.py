"""The benchmarks' shared helper: load the corpora, score extractions with
their word-level metric, and save what a benchmark prints.

Every benchmark imports the package and this module, nothing else of the
repository; the tests may import it (and the benchmarks), never the other
way. Run the benchmarks from the repository root as modules, so that
``benchmarks.corpus`` imports with no change to ``sys.path``::

    python -m benchmarks.quality --help

The corpus (WCXB dev split, 1,497 pages) lives beside the repository, in
``../shared/corpora/wcxb-dev``; :func:`default_corpus_path` computes that path
from this file, and every entry point also takes the path as an argument.
Each page is ``html/NNNN.html.gz`` (gzip, UTF-8) plus ``ground-truth/NNNN.json``.

Typical use::

    from benchmarks.corpus import default_corpus_path, load_pages, score, aggregate

    pages = list(load_pages(default_corpus_path(), limit=50))
    scores = [score(my_extractor(p.html, p.url), p) for p in pages]
    print(aggregate(scores).overall.f1)

Metric (the corpus's own):

* Words: lower-case the text, take its words as bags, in the extraction and
  in ``main_content``: each Han or kana character (``HAN_AND_KANA``, the
  corpora README's ranges) a word of its own, and the ``\\w+`` runs of other
  characters (on a page without those characters, ``re.findall(r"\\w+", text)``
  as the WCXB metric has it); overlap is the sum of the
  minimum counts. Precision = overlap / extracted words, recall = overlap /
  reference words, F1 their harmonic mean; each is averaged over pages.
  An empty reference scores 1/1/1 for an empty extraction and 0/0/0 for any
  other; an empty extraction of a non-empty reference scores 0/0/0
  ("empty" means no word at all).
* Two pages (4802, 4893) have no ``main_content`` key at all, although
  their ``with`` snippets show they have content: they are left out of the
  word metric (``Score.has_reference`` is False) but still count for the
  snippet rates. Scoring them as empty references would give every extractor
  a 0 there for an annotation gap.
* Snippets: the with-snippet rate is, per page, the fraction of
  ``ground_truth.with`` snippets found in the extraction, averaged over the
  pages that have such snippets (higher is better); the without-snippet rate
  is the same for ``ground_truth.without`` (boilerplate, lower is better).
* Snippet match: on words, like the metric. Both sides become their
  sequence of lower-cased ``\\w+`` tokens, and a snippet is found when its
  token sequence occurs in the extraction's, starting at a word start; its
  last token may be a prefix of a longer word. So case, white space,
  punctuation and typographic quotes or dashes (which the annotations and
  the pages do not use alike) do not matter. The prefix rule is there because
  about 300 ``with`` snippets (mostly in ids >= 4000) are cut off mid-word;
  its cost is that a boilerplate snippet like "Home" also matches "homemade".
  Checked against the anchors, this reproduces the without-snippet rates
  measured elsewhere to within a point (a plain case-insensitive substring
  test gives the same without-rates to within 0.5 point but misses 10 to 12
  points of with-snippets over quote, dash and white-space differences).

Page types come from ``_internal.page_type.primary``; ``category`` is read
as ``collection``. A corpus whose records name no type has the one its
README gives every page (``CORPUS_PAGE_TYPES``).

Saved output: every benchmark takes ``--save FILE``; it prints as usual and,
when it ends, writes the same output to FILE (by convention
``benchmarks/results/NAME.txt``) after a first line with the command that
produced it (:func:`save_output`). ``tests/test_docs.py`` checks that every
table the docs quote from such a file is in it, so a figure in the docs
cannot go stale unseen: rerun the benchmark with ``--save`` and copy the new
lines into the docs.
"""

from __future__ import annotations

import atexit
import gzip
import io
import json
import random
import re
import statistics
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import lxml.html

from scrapy_declutter.core.document import Document
from scrapy_declutter.stages.evidence import evidence_of

# Chinese and Japanese are written without spaces: their characters are words.
HAN_AND_KANA = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
WORD_RE = re.compile(f"[{HAN_AND_KANA}]|[^\\W{HAN_AND_KANA}]+")
_HAN_AND_KANA = re.compile(f"[{HAN_AND_KANA}]")
PAGE_TYPE_ALIASES = {"category": "collection"}
# The corpora whose records name no page type, and what ../shared/corpora/README.md
# says their pages are: the article gate is fitted on the types, and without
# these it learnt 429 articles as pages that are not.
CORPUS_PAGE_TYPES = {"news-2017": "article", "zh-articles": "article"}


# The corpora beside the repository, in the order the benchmarks report them.
CORPORA = ("wcxb-dev", "dragnet", "l3s-gn1", "magic-forum", "news-2017", "zh-articles")


def default_corpus_path() -> Path:
    """Return ``<repo>/../shared/corpora/wcxb-dev`` (it may not exist)."""
    return Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "wcxb-dev"


def default_corpora() -> list[Path]:
    """The corpora of ``CORPORA`` beside the repository that are there."""
    base = default_corpus_path().parent
    return [base / name for name in CORPORA if (base / name / "ground-truth").is_dir()]


@dataclass(frozen=True)
class Page:
    """One corpus page: raw bytes plus the parts of the ground truth we score on."""

    file_id: str
    html: bytes
    page_type: str
    main_content: str | None  # None: the annotation has no main_content
    with_snippets: tuple[str, ...]
    without_snippets: tuple[str, ...]
    url: str | None


def page_ids(path: Path | str) -> list[str]:
    """Return the sorted ids of the pages that have both HTML and ground truth."""
    path = Path(path)
    html_ids = {p.name.split(".")[0] for p in (path / "html").glob("*.html.gz")}
    return sorted(p.stem for p in (path / "ground-truth").glob("*.json") if p.stem in html_ids)


def read_page(path: Path | str, file_id: str) -> Page:
    """Read one page (HTML bytes and ground truth) by id."""
    path = Path(path)
    record = json.loads((path / "ground-truth" / f"{file_id}.json").read_text(encoding="utf-8"))
    truth = record["ground_truth"]
    page_type = (
        record.get("_internal", {}).get("page_type", {}).get("primary")
        or CORPUS_PAGE_TYPES.get(path.name)
        or "unknown"
    )
    return Page(
        file_id=file_id,
        html=gzip.decompress((path / "html" / f"{file_id}.html.gz").read_bytes()),
        page_type=PAGE_TYPE_ALIASES.get(page_type, page_type),
        main_content=truth.get("main_content"),
        with_snippets=tuple(truth.get("with") or ()),
        without_snippets=tuple(truth.get("without") or ()),
        url=record.get("url"),
    )


def load_pages(
    path: Path | str | None = None,
    limit: int | None = None,
    sample: int | None = None,
    seed: int = 0,
) -> Iterator[Page]:
    """Yield corpus pages in id order, reading each lazily.

    ``sample`` picks that many pages at random (reproducibly, from ``seed``);
    ``limit`` then keeps the first ``limit`` of what is left.
    """
    path = Path(path) if path is not None else default_corpus_path()
    ids = page_ids(path)
    if not ids:
        raise FileNotFoundError(f"no WCXB pages under {path}")
    if sample is not None and sample < len(ids):
        ids = sorted(random.Random(seed).sample(ids, sample))
    for file_id in ids[:limit]:
        yield read_page(path, file_id)


def is_cjk(text: str) -> bool:
    """Whether a tenth or more of ``text``'s characters are Han or kana: a
    Chinese or Japanese page (magic-forum's 23 Chinese pages, by their
    reference; the next page has 0.8%)."""
    return 10 * len(_HAN_AND_KANA.findall(text)) >= len(text) > 0


def words(text: str) -> Counter[str]:
    """Bag of lower-cased words (see the module's docstring)."""
    return Counter(WORD_RE.findall(text.lower()))


def normalise(text: str) -> str:
    """Text as its lower-cased words, each preceded and followed by a space."""
    return f" {' '.join(WORD_RE.findall(text.lower()))} "


def contains_snippet(normalised_text: str, snippet: str) -> bool:
    """True if ``snippet`` occurs in ``normalised_text`` (from :func:`normalise`):
    its words in sequence from a word start, the last one possibly cut short."""
    needle = normalise(snippet).rstrip()  # no trailing space: the last word may be a prefix
    return bool(needle) and needle in normalised_text


@dataclass(frozen=True)
class Score:
    """Per-page result. P/R/F1 are None when the page has no reference."""

    file_id: str
    page_type: str
    precision: float | None
    recall: float | None
    f1: float | None
    with_found: int
    with_total: int
    without_found: int
    without_total: int
    empty: bool  # the extraction is blank
    cjk: bool = False  # the reference is in Chinese or Japanese (``is_cjk``)

    @property
    def has_reference(self) -> bool:
        return self.f1 is not None


def word_prf(extracted: str, reference: str) -> tuple[float, float, float]:
    """Bag-of-words precision, recall and F1 of one extraction."""
    got, want = words(extracted), words(reference)
    n_got, n_want = sum(got.values()), sum(want.values())
    if n_want == 0:
        return (1.0, 1.0, 1.0) if n_got == 0 else (0.0, 0.0, 0.0)
    if n_got == 0:
        return 0.0, 0.0, 0.0
    overlap = sum((got & want).values())
    precision, recall = overlap / n_got, overlap / n_want
    f1 = 2 * precision * recall / (precision + recall) if overlap else 0.0
    return precision, recall, f1


def score(extracted_text: str | None, page: Page) -> Score:
    """Score one extraction of ``page`` (None counts as an empty extraction)."""
    text = extracted_text or ""
    if page.main_content is None:
        precision = recall = f1 = None
    else:
        precision, recall, f1 = word_prf(text, page.main_content)
    norm = normalise(text)
    return Score(
        file_id=page.file_id,
        page_type=page.page_type,
        precision=precision,
        recall=recall,
        f1=f1,
        with_found=sum(contains_snippet(norm, s) for s in page.with_snippets),
        with_total=len(page.with_snippets),
        without_found=sum(contains_snippet(norm, s) for s in page.without_snippets),
        without_total=len(page.without_snippets),
        empty=not text.strip(),
        cjk=is_cjk(page.main_content or ""),
    )


@dataclass(frozen=True)
class Summary:
    """Averages over a set of pages (None where no page qualifies)."""

    pages: int
    scored: int  # pages with a reference
    precision: float | None
    recall: float | None
    f1: float | None
    with_rate: float | None
    without_rate: float | None
    empty: int


@dataclass(frozen=True)
class Aggregate:
    overall: Summary
    by_type: dict[str, Summary] = field(default_factory=dict)


def _mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def summarise(scores: Sequence[Score]) -> Summary:
    """Macro-average one group of page scores."""
    ref = [s for s in scores if s.has_reference]
    return Summary(
        pages=len(scores),
        scored=len(ref),
        precision=_mean([s.precision for s in ref]),
        recall=_mean([s.recall for s in ref]),
        f1=_mean([s.f1 for s in ref]),
        with_rate=_mean([s.with_found / s.with_total for s in scores if s.with_total]),
        without_rate=_mean([s.without_found / s.without_total for s in scores if s.without_total]),
        empty=sum(s.empty for s in scores),
    )


def aggregate(scores: Iterable[Score]) -> Aggregate:
    """Summaries over all pages and per page type (types sorted by page count)."""
    scores = list(scores)
    groups: dict[str, list[Score]] = defaultdict(list)
    for s in scores:
        groups[s.page_type].append(s)
    ordered = sorted(groups, key=lambda t: (-len(groups[t]), t))
    return Aggregate(summarise(scores), {t: summarise(groups[t]) for t in ordered})


SAVE_HELP = "also write the output to this file (benchmarks/results/NAME.txt)"


class _Tee(io.TextIOBase):
    """Writes to the real standard output and keeps a copy."""

    def __init__(self, stream):
        self.stream = stream
        self.copy = io.StringIO()

    def write(self, text):
        self.copy.write(text)
        return self.stream.write(text)

    def flush(self):
        self.stream.flush()


def command_line() -> str:
    """This run's command, with paths shortened to their last part (no machine's paths)."""
    words = [f"-m benchmarks.{Path(sys.argv[0]).stem}"]
    words += [Path(arg).name if arg.startswith("/") else arg for arg in sys.argv[1:]]
    return "python " + " ".join(words)


def save_output(path: Path | None) -> None:
    """From now on, copy standard output; write it to ``path`` at exit (nothing if None)."""
    if path is None:
        return
    tee = _Tee(sys.stdout)
    sys.stdout = tee

    def write() -> None:
        sys.stdout = tee.stream
        path.write_text(f"$ {command_line()}\n\n{tee.copy.getvalue()}", encoding="utf-8")

    atexit.register(write)


class KeptScores:
    """Stands for ``ScoreContent``: writes the models' scores that
    ``train_content_model.py --scores`` kept for a page, held out."""

    def __init__(self, final: list[float], first: list[float], probability: float) -> None:
        self.final, self.first, self.probability = final, first, probability

    def __call__(self, document: Document) -> None:
        if len(document.blocks) != len(self.final):
            sys.exit("the blocks changed since the scores were kept: fit again")
        evidence_of(document).article_probability = self.probability
        for block, first, final in zip(document.blocks, self.first, self.final):
            block.block_score, block.score = first, final


def held_out_scores(kept: dict[str, tuple], left_out: bool) -> dict[tuple[str, str], KeptScores]:
    """Each page's kept scores, by (corpus, file id), from a ``--scores``
    file's parts (``pickle``-loaded): those of the fit that left the page's
    corpus out (``left_out``), or those of the folds by site."""
    found = {}
    for title, (keys, final, first, probabilities) in kept.items():
        if title.startswith("fitted on") == left_out:
            for i, key in enumerate(keys):
                found[key] = KeptScores(final[i], first[i], probabilities[i])
    return found


# Told the encoding: lxml trusts a page's <meta charset>, and a page saved
# as UTF-8 that still declares GB2312 (37 of zh-articles' 69) stops its
# parse at the first character it cannot decode, a baseline of a few
# elements rather than the page.
_UTF8_PARSER = lxml.html.HTMLParser(encoding="utf-8")


def bare_parse(html: bytes) -> object:
    """The baseline the speed figures divide by: a bare
    ``lxml.html.document_fromstring`` of a corpus page, told its bytes are
    UTF-8 (every corpus page is)."""
    return lxml.html.document_fromstring(html, parser=_UTF8_PARSER)
