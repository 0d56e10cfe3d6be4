"""Blocks whose words are the page's controls, not prose (the ``declutter``
pipeline, after the content region and the article's end).

Under or over an article, a page shows its controls as text: a share bar
("Sharing is caring! 0shares Reddit", "Share Tweet Email", "Facebook Twitter
Pinterest WhatsApp"), "Follow us on Twitter", a caption's "Caption Close".
Inside the article's element they score as the article does, and the region
keeps them. Their words say what they are: each is a verb or noun of the
page's controls (share, tweet, pin, email, print, save, follow, subscribe,
comment, close, caption, advertisement, autoplay, ...) or the name of a
social network, a count ("0shares", "1.2K") or a small function word ("us",
"on", "this"), with at most ``OTHER_WORDS`` other word when
``INTERFACE_WORDS`` or more are the controls' ("Sharing is caring!"). A
block of words a sentence or a heading uses ("Share your story", "We are on
Facebook since 2009") has other words.

Only a page the article gate takes for an article (as ``article_end.py``,
``evidence.TAKEN_FOR_ARTICLE``) is tested: a contact page's list of social
links may be its content.

The vocabulary is English to start; it is data, and other languages'
words can be added to ``CONTROL_WORDS`` and ``FUNCTION_WORDS``.
"""

import re
from dataclasses import dataclass
from typing import ClassVar

from scrapy_declutter.core.blocks import Block
from scrapy_declutter.core.document import Document
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.evidence import TAKEN_FOR_ARTICLE, take_back_on_articles

NAME = "interface-labels"
INTERFACE_LABEL = Reason(
    "a page's controls, not prose",
    "on a page taken for an article, a block whose words are all a page's controls: verbs "
    "and nouns of sharing and of controls (share, tweet, email, follow, close, caption, "
    "advertisement), social networks' names, counts and small function words, with one "
    'other word at most beside three controls\' words (a share bar, "Caption Close"). '
    "English words to start.",
    rule=NAME,
)

# The verbs and nouns of sharing and of a page's controls.
ACTIONS = frozenset(
    """share shares shared sharing tweet tweets retweet pin pins pinit email emails e-mail
    mail print save saved like likes follow followers subscribe comment comments reply
    replies close caption expand collapse copy copied link embed send bookmark advertisement
    advertisements advertising ad ads sponsored autoplay toggle""".split()
)
# Social networks and messengers, as their share buttons name them.
NETWORKS = frozenset(
    """facebook twitter x reddit pinterest linkedin whatsapp telegram tumblr flipboard
    pocket mastodon bluesky threads messenger instagram youtube tiktok digg stumbleupon
    mix vk xing weibo wechat sms snapchat""".split()
)
CONTROL_WORDS = ACTIONS | NETWORKS
FUNCTION_WORDS = frozenset(
    """a an the this it is us on off via to with by and or of for in""".split()
)
# A count written beside a control ("12", "1.2K", "12,345"); a price ("$429")
# or a size ("14″") is not one.
COUNT = re.compile(r"\d+(?:[.,]\d+)*[km]?")
# A control's word with its count written on ("0shares").
_COUNTED = re.compile(r"\d+([^\W\d_]+)")
# The punctuation around a word ("Comments (12)", "Share this:", "Like!").
_PUNCTUATION = "()[]{}:;,.!?|/\"'“”\u2018\u2019·•-\u2013—"
INTERFACE_WORDS = 3
OTHER_WORDS = 1
# A bar of controls fits in a line; a longer block is prose, read no further.
MAX_CHARACTERS = 200


def is_interface_label(text: str, heading: bool = False) -> bool:
    """Whether ``text`` (a block's) is all controls' words (see the module's
    docstring): at least one word of ``CONTROL_WORDS``, every other word a
    count or one of ``FUNCTION_WORDS``, but for ``OTHER_WORDS`` when
    ``INTERFACE_WORDS`` or more are controls' words. An "x" beside a count
    is a multiplication sign ("1920 x 1080"), not the network; a
    ``heading`` of networks' names alone titles a section about them."""
    if len(text) > MAX_CHARACTERS:
        return False
    words = [w for w in (t.strip(_PUNCTUATION).lower() for t in text.split()) if w]
    controls = others = actions = 0
    for i, word in enumerate(words):
        counted = _COUNTED.fullmatch(word)
        if counted and counted.group(1) in CONTROL_WORDS:
            word = counted.group(1)
        if word == "x" and any(_is_count(words, j) for j in (i - 1, i + 1)):
            others += 1
        elif word in CONTROL_WORDS:
            controls += 1
            actions += word in ACTIONS
        elif word not in FUNCTION_WORDS and not _is_count(words, i):
            others += 1
            if others > OTHER_WORDS:  # a sentence's words: no need to read on
                return False
    if heading and not actions:
        return False
    if controls >= INTERFACE_WORDS:
        return others <= OTHER_WORDS
    return controls > 0 and others == 0


def _is_count(words: list[str], i: int) -> bool:
    return 0 <= i < len(words) and COUNT.fullmatch(words[i]) is not None


@dataclass(frozen=True)
class KeepOutInterfaceLabels:
    """Labels bad (``INTERFACE_LABEL``) each kept block that is all controls'
    words (``is_interface_label``) on a page the article gate gives more
    than ``article``."""

    article: float = TAKEN_FOR_ARTICLE
    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        take_back_on_articles(document, self.article, _is_label, INTERFACE_LABEL)


def _is_label(block: Block) -> bool:
    return is_interface_label(block.text, block.heading)
