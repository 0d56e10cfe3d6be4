"""The parts of a page where others than its author write: comment sections
and forms.

A page marks its comment section for its own scripts and styles, by a class
or id (``marks_comments``, ``stages/comment_section.py``): the comments stage
sets its blocks apart by it (``stages/comments.py``), and the metadata takes
no author or date from it (``metadata.py``), nor from a form (the comment
form's "Name *") or a ``<label>``.
"""

from lxml import etree

from scrapy_declutter.stages.comment_section import marks_comments

# Elements whose text is a form's, never a byline: a form's labels and fields.
_FORM_TAGS = frozenset(("form", "label", "fieldset", "textarea", "select", "button"))
# A form's fields, which the text beside them labels.
_FIELD_TAGS = frozenset(("input", "textarea", "select"))


def holds_field(element: etree._Element) -> bool:
    """Whether one of ``element``'s children is a form's field ("<p>Your
    name <input></p>"): the element's text labels it. Only the children are
    read, each once for its parent."""
    return any(child.tag in _FIELD_TAGS for child in element)


class Asides:
    """Which elements lie in a comment section or a form: in (or are) an
    element whose class or id marks comments (``marks_comments``), a
    ``<form>`` or one of its fields (``_FORM_TAGS``).

    An element that holds the start of the page's text (``article_start``,
    its first kept block's element) is none of these: a theme that marks the
    article's wrapper "comments-open", or an ASP.NET page that is one
    ``<form>``. Each element's answer is kept: asking for many elements
    reads each of their ancestors once.
    """

    def __init__(
        self, article_start: etree._Element | None, set_apart: frozenset[int] = frozenset()
    ):
        self.set_apart = set_apart  # the offsets of blocks the extraction set apart as comments
        self.article = set(article_start.iterancestors()) if article_start is not None else set()
        if article_start is not None:
            self.article.add(article_start)
        self.known: dict[etree._Element, bool] = {}

    def __contains__(self, element: etree._Element) -> bool:
        known = self.known
        path = []
        while element is not None and element not in known:
            path.append(element)
            element = element.getparent()
        inside = known[element] if element is not None else False
        for above in reversed(path):  # from the top down
            inside = inside or self._opens(above)
            known[above] = inside
        return inside

    def _opens(self, element: etree._Element) -> bool:
        """Whether ``element`` itself is a comment section's or a form's."""
        if element in self.article:
            return False
        return element.tag in _FORM_TAGS or marks_comments(element.get("class"), element.get("id"))
