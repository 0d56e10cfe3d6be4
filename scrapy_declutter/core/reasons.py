"""Why a block has its final label: the rule that decided it.

A stage that decides a block's label writes one of these names on it
(``Block.reason``). They are plain strings, so recording one costs an
attribute write; the HTML report (``report.py``) shows each block's reason
and explains it with ``EXPLANATIONS``. A later stage that changes a label
writes its own reason, so the last rule to decide is the one named.
"""

# jusText (stages/justext.py)
CONTEXT_FREE = "jusText: context-free class"
NEIGHBOURS = "jusText: neighbours"
HEADING = "jusText: heading"
# the content model (stages/content_model.py)
CONTENT_REGION = "content region"
BELOW_THRESHOLD = "score below threshold"
SHORT_LINK = "link rule"
BOILERPLATE_GUARD = "sure-boilerplate guard"
OUTSIDE_REGION = "outside the content region"
DATA_TABLE = "in a kept data table"
FALLBACK = "fallback to jusText"
BEST_GUESS = "the page's best blocks"
HEADLINE = "headline"
COPYRIGHT = "copyright sign"
HIDDEN = "not shown by a browser"
REPEATED = "repeated text"
# blocks whose text is a value (stages/value_blocks.py)
VALUE = "a value, not prose"
# the end of an article (stages/article_end.py)
TEASERS = "teasers after the article"
# blocks of a page's controls (stages/interface_labels.py)
INTERFACE_LABEL = "a page's controls, not prose"
# an article's tags and sections (stages/tag_lines.py)
TAG_LINE = "a tag line beside the article"
# the region's edge rule (stages/page_edge.py)
PAGE_EDGE = "prose at the page's edge"
# user comments (stages/comments.py)
COMMENTS = "in the comments"
# the tree filter and the density filter
TREE_FILTER = "tree filter"
DENSITY = "text density"
TOO_SHORT = "density filter: too short"
# Boilerpipe (stages/boilerpipe.py, boilerpipe_classifiers.py)
BOILERPIPE_CLASSIFIER = "Boilerpipe: classifier"
BOILERPIPE_END = "Boilerpipe: after the end of the text"
BOILERPIPE_LARGEST = "Boilerpipe: not the largest block"
BOILERPIPE_TITLE = "Boilerpipe: between title and content"
BOILERPIPE_FUSED = "Boilerpipe: fused with content"

# What each reason means, for the report's legend. ``{name}`` is an option's
# value, filled in by the report.
EXPLANATIONS = {
    CONTEXT_FREE: "jusText's class for the block alone stands: long text rich in "
    "stopwords is good; link-heavy text (link density above {max_link_density}), a "
    "copyright sign, or short text with a link is bad.",
    NEIGHBOURS: "a short or near-good block takes the class of the good or bad blocks "
    "around it (jusText's context-sensitive stage).",
    HEADING: "a heading followed by good text within {max_heading_distance} characters "
    "is kept (jusText's heading stage).",
    CONTENT_REGION: "inside the content region and the content score is above the "
    "threshold ({content_threshold}).",
    BELOW_THRESHOLD: "the content score is at or below the threshold ({content_threshold}).",
    SHORT_LINK: "a short link (at most {short_link_words} words, mostly link text) needs "
    "a score above {short_link_threshold}.",
    BOILERPLATE_GUARD: "the block's own features score {sure_boilerplate} or less (block "
    "score): it is never kept, whatever its neighbours.",
    OUTSIDE_REGION: "outside the element that holds the most content (the content region).",
    DATA_TABLE: "a cell of a data table (rows of text cells, no lists or nested tables) "
    "in which the content region keeps a block: the table is kept whole.",
    FALLBACK: "the content model kept nothing on this page, so jusText's good blocks are "
    "kept, save those in a footer, navigation, sidebar or banner.",
    BEST_GUESS: "neither the content model nor the fallback kept anything: the content "
    "region is found again with the threshold {best_guess_margin} below the page's best "
    "score (never down to {sure_boilerplate}).",
    HEADLINE: "on a page taken for an article, the nearest block above the content that "
    "repeats the page's title (three words or more, {headline_overlap:.0%} of them in the "
    "title) and scores above {headline_floor}, when nothing kept repeats it.",
    COPYRIGHT: "a block with a copyright sign is a copyright line or a photo credit "
    "(jusText's rule), whatever its score.",
    HIDDEN: 'under an element with the hidden attribute, aria-hidden="true" or an '
    "inline display: none or visibility: hidden style: a reader never sees it (unless "
    "the page hides more than a third of its text, which its scripts then show).",
    COMMENTS: "under an element whose class or id names comments (comments, comment-list, "
    "disqus_thread, ...), on a page with an article beside them that does not declare "
    "itself a discussion (a forum thread, questions and answers): kept out of the text, "
    "and in the comments when they are asked for.",
    REPEATED: "a block of four words or more whose text an earlier kept block has (a "
    "teaser list twice over, a repeated headline): the first copy stays. A paragraph of "
    "15 words or more said twice in one element, whose kept neighbours repeat nothing, "
    "stays too (an article that says a thing twice).",
    VALUE: "the whole text is a value written for a machine, not prose for a reader: an "
    "ISO 8601 date and time (2019-11-13T23:06:00+01:00), the URL of an image, or markup "
    "written out as text (most of it HTML tags); not in code or a data table.",
    TEASERS: "on a page taken for an article, after its last paragraph of prose: a run "
    "of {min_cards} or more cards, each a linked headline and a short line (other "
    "stories), and the run's heading.",
    INTERFACE_LABEL: "on a page taken for an article, a block whose words are all a "
    "page's controls: verbs and nouns of sharing and of controls (share, tweet, email, "
    "follow, close, caption), social networks' names, counts and small function words, "
    "with one other word at most beside three controls' words (a share bar, \"Caption "
    'Close"). English words to start.',
    TAG_LINE: "on a page taken for an article, before its first paragraph of prose or "
    'after its last: a line that names the tags or sections it is filed under ("Tags: '
    'Ford, hybrid transmission", "Filed under: NHL"), a label and a list of short items.',
    PAGE_EDGE: "the blocks from the page's first block to the first kept one, when each "
    "is jusText's good or near-good by itself, outside the navigation, and left out by its "
    "score, the guard or the region alone: the model reads a block beside its neighbours, "
    "and there are none before the page's edge (a small page's first paragraph with no "
    "headline above it). The whole page when nothing else is kept.",
    TREE_FILTER: "kept by the base pipeline, but not under the ancestor (depth "
    "{tree_depth}) whose blocks hold the most text.",
    DENSITY: "text density (text characters over text and markup characters) against "
    "0.5 minus the page's standard deviation.",
    TOO_SHORT: "under {min_chars} characters: the density filter drops it.",
    BOILERPIPE_CLASSIFIER: "Boilerpipe's decision tree on the block's words, link "
    "density and text density and those of its neighbours.",
    BOILERPIPE_END: 'after a block that ends the text ("Comments", "Related", ...).',
    BOILERPIPE_LARGEST: "not the content block with the most full-text words.",
    BOILERPIPE_TITLE: "between the title and the content (a headline, a lead).",
    BOILERPIPE_FUSED: "fused with the content block next to it.",
}
