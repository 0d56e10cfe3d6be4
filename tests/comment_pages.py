"""Blog pages with a comment thread and the form to write one, as WordPress
themes write them: for the comments tests and the command's."""

ARTICLE = (
    "<p>The committee met on Tuesday to discuss the new plans for the river bank, and after a"
    " long debate the members agreed that the work should begin in the spring of next year.</p>"
    "<p>The plans include a new path along the water, two bridges and a garden where the old"
    " warehouses stand, and the council will pay for most of the work from its own budget.</p>"
    "<p>Residents who spoke at the meeting were mostly in favour, although several of them asked"
    " how the council would keep the path open during the floods that come every other winter.</p>"
)
COMMENTS = (
    "I have lived by the river for twenty years and I think the new path is a very good idea,"
    " as long as the council keeps it clean.",
    "Who is going to pay for the upkeep once the bridges are built? Nobody at the meeting said"
    " a word about it, and the budget is already stretched.",
    "Great news, thanks for writing this up!",  # short: a post all the same
)
# What the form and the notes beside the thread say: none of it is a comment
FORM_TEXTS = (
    "Leave a Reply",
    "Your email address will not be published. Required fields are marked *",
    "Save my name, email, and website in this browser for the next time I comment.",
    "Comments are moderated before they appear.",  # a short sentence, but in no post
)


def _comment(number: int, text: str) -> str:
    return f"""<li id="comment-{number}" class="comment depth-1">
<article id="div-comment-{number}" class="comment-body"><footer class="comment-meta">
<div class="comment-author vcard"><b class="fn">Reader {number}</b> <span class="says">says:</span>
</div><div class="comment-metadata"><a href="/p#comment-{number}"><time>March {number}, 2024
at 10:00 am</time></a></div></footer>
<div class="comment-content"><p>{text}</p></div>
<div class="reply"><a class="comment-reply-link" href="/p?replytocom={number}#respond">Reply</a>
</div></article></li>"""


FORM = f"""<div id="respond" class="comment-respond">
<h3 id="reply-title" class="comment-reply-title">{FORM_TEXTS[0]} <small><a
href="/p#respond">Cancel reply</a></small></h3>
<form action="/wp-comments-post.php" method="post" id="commentform" class="comment-form">
<p class="comment-notes">{FORM_TEXTS[1]}</p>
<p class="comment-form-comment"><label for="comment">Comment *</label>
<textarea id="comment" name="comment"></textarea></p>
<p class="comment-form-author"><label for="author">Name *</label>
<input id="author" name="author" type="text"></p>
<p class="comment-form-cookies-consent"><input id="consent" type="checkbox">
<label for="consent">{FORM_TEXTS[2]}</label></p>
<p class="form-submit"><input type="submit" value="Post Comment"></p></form></div>"""


def blog_page(comments: tuple[str, ...] = COMMENTS, *, title_open: bool = False) -> str:
    """The article, its thread (``comments``) and the form. ``title_open``:
    the thread's title is an ``<h2>`` left open, which holds the thread."""
    thread = "".join(_comment(n + 1, text) for n, text in enumerate(comments))
    title = f"{len(comments)} thoughts on &ldquo;River plans approved&rdquo;"
    title = f"<h2>{title}" if title_open else f'<h2 class="comments-title">{title}</h2>'
    return f"""<!DOCTYPE html><html lang="en"><head><title>River plans approved</title></head>
<body><header><a href="/">The Riverside Times</a> <a href="/news">News</a></header>
<main><article class="post"><h1 class="entry-title">River plans approved</h1>
<div class="entry-content">{ARTICLE}</div></article>
<div id="comments" class="comments-area">{title}<ol class="comment-list">{thread}</ol>
<p class="note">{FORM_TEXTS[3]}</p>{FORM}</div></main>
<footer><p>Copyright 2024 The Riverside Times</p></footer></body></html>"""
