"""How sure the extraction is that a page is an article: ``article_probability``.

The default pipeline's article gate (``stages/article_gate.py``) reads each
page's shape and says how much it reads as an article. ``extract()``'s result
does not keep that number, so it is computed again here, by the same gate
and the same content models, on the result's final blocks and parsed tree
(the decision stages have labelled the blocks since, so it is not the very
number the pipeline mixed its models by: on the first 400 pages of
wcxb-dev, the two differ by 0.00004 at the median, 0.013 at the 99th
percentile, 0.031 at most). A pipeline without the gate
(``justext``, ``boilerpipe``, ...) gives 1.0 when it kept any text, else 0.0.
Only the ``Article`` page object (``poet.py``) asks for it: no other output
pays for it.
"""

from scrapy_declutter.core.document import Document
from scrapy_declutter.extraction.extract import ExtractionResult
from scrapy_declutter.stages.content_model import ScoreContent

# The pipeline whose stages include the article gate.
GATED_PIPELINE = "declutter"


def article_probability(result: ExtractionResult) -> float:
    """The probability, from 0 to 1, that ``result``'s page is an article."""
    if not result.text.strip():
        return 0.0
    if result.pipeline != GATED_PIPELINE:
        return 1.0
    document = Document(
        blocks=result.blocks,
        root=result.root,
        title=result.title,
        language=result.stoplist,
        all_buttons=result.all_buttons,
        _tree=result.tree,
        _found=result.found,
    )
    return round(ScoreContent().scores(document).mix.gate, 4)
