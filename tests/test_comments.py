"""User comments: never in the text by default, in result.comments on request."""

import pytest

from scrapy_declutter import Label, extract
from scrapy_declutter.core.document import build_document
from scrapy_declutter.stages.comment_section import COMMENTS, comment_section, marks_comments
from scrapy_declutter.stages.comments import SeparateComments
from tests.comment_pages import COMMENTS as POSTS
from tests.comment_pages import FORM_TEXTS, blog_page
from tests.factory import justext_document, keep_content_region
from tests.hostile import within

ARTICLE = (
    "<p>The committee met on Tuesday to discuss the new plans for the river bank, and after a"
    " long debate the members agreed that the work should begin in the spring of next year.</p>"
    "<p>The plans include a new path along the water, two bridges and a garden where the old"
    " warehouses stand, and the council will pay for most of the work from its own budget.</p>"
)
COMMENT = (
    "I have lived by the river for twenty years and I think the new path is a very good idea,"
    " but the council should also think about the people who park their cars along the bank."
)
# Without a headline, the first of the article's two paragraphs is the page's
# first block, and the models score it near the threshold (0.36 to 0.48 in the
# last two fits): the article here is a page's, headline and all.
HEADLINE = "<h1>River plans approved</h1>"
PAGE = f"""<html lang="en"><body><article>{HEADLINE}{ARTICLE}</article>
<section id="comments" class="comments-area"><h2>3 comments</h2>
<ol class="comment-list"><li class="comment"><div class="comment-author">Sam</div>
<div class="comment-content"><p>{COMMENT}</p></div><a href="#reply">Reply</a></li></ol>
<div id="respond"><form><label>Leave a reply</label></form></div></section></body></html>"""


def test_comments_are_not_in_the_text_by_default():
    result = extract(PAGE)
    assert "river bank" in result.text
    assert "twenty years" not in result.text
    assert result.comments is None  # not asked for
    assert "twenty years" not in result.markdown


def test_comments_on_request_hold_the_comment_text_only():
    result = extract(PAGE, comments=True)
    assert result.comments == COMMENT
    assert "twenty years" not in result.text
    assert result.to_dict()["comments"] == COMMENT
    labels = {b.text: b.label for b in result.blocks}
    assert labels[COMMENT] is Label.COMMENT
    assert labels["Reply"] is Label.BAD
    assert {b.reason for b in result.blocks if b.label is Label.COMMENT} == {COMMENTS}


REPLIES = [
    f"Reply {n}: I read the whole piece twice and I still think that the council has not"
    f" said where the money for the second bridge will come from, which worries me a lot."
    for n in range(12)
]
THREAD = "".join(
    f'<li class="comment"><p class="comment-author">Reader {n}</p><p>{reply}</p></li>'
    for n, reply in enumerate(REPLIES)
)


def test_a_thread_longer_than_the_article_does_not_take_its_place():
    # twelve replies hold three times the article's text (the region's own
    # part: test_the_region_never_takes_the_thread_for_the_content)
    page = (
        f'<html lang="en"><body><div class="post">{HEADLINE}{ARTICLE}</div>'
        f'<div id="comments"><h3>12 responses</h3><ol class="commentlist">{THREAD}</ol>'
        "</div></body></html>"
    )
    result = extract(page, comments=True)
    assert "river bank" in result.text
    assert "second bridge" not in result.text
    assert result.comments == "\n\n".join(REPLIES)


def test_the_region_never_takes_the_thread_for_the_content():
    # scored as a model that never saw a comment thread may score one: as
    # content, like the article; the thread holds the most content by score
    page = (
        f'<html lang="en"><body><div class="post">{HEADLINE}{ARTICLE}</div>'
        f'<div id="comments"><ol class="commentlist">{THREAD}</ol></div></body></html>'
    )
    document = justext_document(page)
    for block in document.blocks:
        block.score = block.block_score = 0.9
    keep_content_region(document)
    kept = " ".join(b.text for b in document.blocks if b.label is Label.GOOD)
    assert "river bank" in kept
    assert "second bridge" not in kept
    assert {b.reason for b in document.blocks if "second bridge" in b.text} == {COMMENTS}


@pytest.mark.parametrize(
    "heading",
    [
        '<h2 id="comments">Comments</h2>',
        '<h2><a id="comments"></a>Comments</h2>',  # an anchor to jump to them
        '<h2><a name="comments"></a>Comments</h2>',
        '<div class="form-link"><h2 id="comments">Comments</h2></div>',  # alone in a wrapper
        '<a name="comments"></a><h2>Comments</h2>',  # an empty anchor before it
    ],
)
def test_a_marked_heading_or_anchor_opens_the_comment_section_to_the_end_of_its_parent(heading):
    # older blog themes: the comments follow a heading or an anchor that names them, unmarked
    replies = "".join(
        f'<div id="c{n}"><p>{reply}</p></div><p class="posted">Posted by: Reader {n}</p>'
        for n, reply in enumerate(REPLIES)
    )
    page = (
        f'<html lang="en"><body><div class="content"><div class="entry">{ARTICLE}'
        f"{heading}{replies}</div>"
        f"<p>{COMMENT}</p></div></body></html>"
    )
    document = justext_document(page)
    in_section = dict(zip((b.text for b in document.blocks), comment_section(document) or ()))
    assert in_section["Comments"] and in_section[REPLIES[0]] and in_section["Posted by: Reader 0"]
    assert not in_section[COMMENT]  # after the heading's parent
    assert not any(in_section[t] for t in in_section if "river bank" in t)
    result = extract(page, comments=True)
    assert "warehouses" in result.text
    assert "second bridge" not in result.text
    assert all(reply in result.comments for reply in REPLIES)


def test_a_forum_thread_keeps_its_replies():
    # a page that declares a discussion: its replies are its content, however marked
    ld = '{"@context": "https://schema.org", "@type": "DiscussionForumPosting"}'
    page = (
        f'<html lang="en"><head><script type="application/ld+json">{ld}</script></head>'
        f'<body><div class="topic">{HEADLINE}{ARTICLE}</div><ol class="comments">{THREAD}</ol>'
        "</body></html>"
    )
    document = build_document(page, language="English")
    assert comment_section(document) is None
    result = extract(page, comments=True)
    assert "river bank" in result.text
    assert "second bridge" in result.text
    assert not result.comments


@pytest.mark.parametrize("pipeline", ["justext", "boilerpipe-article"])
def test_paper_pipelines_set_comments_apart_only_on_request(pipeline):
    plain = extract(PAGE, pipeline=pipeline, language="English")
    assert plain.comments is None
    asked = extract(PAGE, pipeline=pipeline, language="English", comments=True)
    assert "twenty years" not in asked.text
    assert not any(b.label is Label.COMMENT for b in plain.blocks)


def test_a_marked_element_holding_most_of_the_text_is_not_a_comment_section():
    page = f'<html><body><div class="comments-enabled">{ARTICLE}</div></body></html>'
    document = build_document(page, language="English")
    for block in document.blocks:
        block.label = Label.GOOD
    assert comment_section(document) is None  # no article beside it
    SeparateComments()(document)
    assert all(block.label is Label.GOOD for block in document.blocks)


@pytest.mark.parametrize(
    ("attributes", "marked"),
    [
        ({"id": "comments"}, True),
        ({"class": "comment-list"}, True),
        ({"class": "x commentlist"}, True),
        ({"id": "disqus_thread"}, True),
        ({"class": "fb-comments"}, True),
        ({"class": "post has-comments"}, False),
        ({"class": "commentary"}, False),
        ({"class": "commentbody"}, True),
        ({"class": "commentator-column"}, False),
        ({"class": "article-body"}, False),
    ],
)
def test_comment_sections_are_named_by_class_or_id(attributes, marked):
    assert marks_comments(attributes.get("class"), attributes.get("id")) is marked


def test_a_thread_of_twenty_thousand_anchors_in_one_container_is_read_once():
    # a named anchor before each reply, all inline siblings: each anchor's
    # section starts at the first node after it, the reply after the last
    replies = "".join(
        f'<a name="comment-{n}"></a><b>Reader {n}</b> agreed.<br>' for n in range(20_000)
    )
    page = (
        f'<html lang="en"><body><article>{HEADLINE}{ARTICLE}</article>'
        f"<div>{replies}<p>{COMMENT}</p></div></body></html>"
    )
    document = justext_document(page)
    # 40 s before: every anchor walked every sibling after it
    in_section = within(10, comment_section, document)
    sections = dict(zip((b.text for b in document.blocks), in_section))
    assert sections[COMMENT]
    assert not any(sections[t] for t in sections if "river bank" in t)


def test_headings_nested_a_thousand_deep_are_each_read_once():
    # every heading holds the rest of the page, and the anchor after it all
    # (30 s before: each heading looked through all the elements in it)
    page = (
        f'<html lang="en"><body><article>{HEADLINE}{ARTICLE}</article>'
        + "<h3><div>" * 1000
        + f"<p>{REPLIES[0]}</p>" * 8000
        + '<a name="comments"></a></body></html>'
    )
    document = justext_document(page)
    in_section = within(10, comment_section, document)
    sections = dict(zip((b.text for b in document.blocks), in_section))
    assert sections[REPLIES[0]]
    assert not any(sections[t] for t in sections if "river bank" in t or "River" in t)


@pytest.mark.parametrize(
    "page",
    [
        blog_page(),
        blog_page(title_open=True),  # the thread inside the title's unclosed <h2>
        # an ASP.NET page: one <form> holds the whole page, the thread too
        blog_page().replace("<body>", '<body><form id="aspnetForm">'),
    ],
    ids=["wordpress", "unclosed-title", "page-in-a-form"],
)
def test_the_comments_are_the_posts_not_the_form_or_the_title(page):
    result = extract(page, comments=True)
    assert result.comments == "\n\n".join(POSTS)
    assert "river bank" in result.text and "twenty years" not in result.text
    form = [b for b in result.blocks if any(text in b.text for text in FORM_TEXTS)]
    assert len(form) == len(FORM_TEXTS)
    assert all(b.label is Label.BAD and b.reason == COMMENTS for b in form)


def test_a_thread_with_no_comment_gives_no_comments():
    # "0 thoughts", and the form: the comments or nothing, never the form's notes
    result = extract(blog_page(()), comments=True)
    assert result.comments == ""
    assert "river bank" in result.text


# What a comment system says beside the thread (issue 39): none of it is a post
NOSCRIPT_NOTICE = "Please enable JavaScript to view the comments powered by our comment service."
MODERATED = "Comments are moderated, and will not appear until the author has approved them."
QUOTING = (
    "<blockquote><p>Who is going to pay for the upkeep once the bridges are built?</p>"
    "</blockquote><p>The council will, from the same budget as the path, it says so in the"
    " plans.</p>"
)


def test_a_noscript_notice_is_not_a_comment():
    # what a browser shows only when scripts do not run: the thread scripts load is the posts
    page = blog_page().replace(
        '<ol class="comment-list">',
        f'<noscript><p>{NOSCRIPT_NOTICE}</p></noscript><ol class="comment-list">',
    )
    result = extract(page, comments=True)
    assert result.comments == "\n\n".join(POSTS)
    assert NOSCRIPT_NOTICE not in result.text
    [notice] = [b for b in result.blocks if b.text == NOSCRIPT_NOTICE]
    assert notice.label is Label.BAD and notice.reason == COMMENTS


def test_a_forms_notes_are_no_comment_beside_its_hidden_messages():
    # a form's messages shown by its scripts ("Thanks, your comment awaits
    # approval") are hidden blocks: the form's own, not text outside the section
    page = blog_page().replace(
        '<p class="comment-notes">',
        f'<p class="moderated">{MODERATED}</p>'
        '<p style="display: none">Your comment has been saved and awaits approval.</p>'
        '<p class="comment-notes">',
    )
    result = extract(page, comments=True)
    assert result.comments == "\n\n".join(POSTS)
    assert MODERATED not in result.comments
    assert "river bank" in result.text and MODERATED not in result.text


def test_a_class_naming_the_form_on_every_post_is_the_posts():
    # a theme styles each post like the form ("comment-form-styled"): a page
    # has one form to write a comment, a class on every post is the posts'
    page = blog_page().replace('class="comment-body"', 'class="comment-form-styled"')
    result = extract(page, comments=True)
    assert result.comments == "\n\n".join(POSTS)


def test_a_post_quoting_another_stays_a_comment():
    page = blog_page((*POSTS, "QUOTE")).replace("<p>QUOTE</p>", QUOTING)
    page = page.replace(
        '<ol class="comment-list">',
        f'<noscript><p>{NOSCRIPT_NOTICE}</p></noscript><ol class="comment-list">',
    )
    result = extract(page, comments=True)
    assert result.comments.startswith("\n\n".join(POSTS))
    assert "The council will, from the same budget" in result.comments
    assert NOSCRIPT_NOTICE not in result.comments


MORE_INFORMATION = (
    "Do you have more information about this story? If so, please write to the editors."
)


def test_a_prompt_in_an_element_named_for_the_form_is_no_comment():
    # the form's box named with a word between ("comment-mid-form"): its prompt is the site's
    page = blog_page().replace(
        '<p class="note">',
        f'<div class="comment-mid-form"><div class="lead-in"><p>{MORE_INFORMATION}</p></div>'
        '</div><p class="note">',
    )
    result = extract(page, comments=True)
    assert result.comments == "\n\n".join(POSTS)
    assert MORE_INFORMATION not in result.text
