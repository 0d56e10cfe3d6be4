# ruff: noqa: E501 (one payload a line reads best)
"""Markup that runs a script or loads a URL, for the report's page view to neutralise.

Each payload, in a page of its own (``page``), calls ``fetch("{hit}")`` or
loads ``{hit}``: ``/hit/<name>`` on the test's server, so a request there
says which payload got through. ``{origin}`` is the server's origin, for
documents of another origin (``data:``). ``FIRES_UNCLICKED`` are the payloads
that reach the server in headless Chromium from the raw page, without a
click (``tests/test_report_payloads.py`` checks that they do); the others
need a click, or a bug of some sanitiser, or another browser.
"""

ARTICLE = (
    "The people who live along the river said that the water was warmer this summer than "
    "it had ever been, and that they had seen fewer fish in it than in any year before."
)
_JS = "fetch('{hit}')"
_ERROR = f'<img src="x" onerror="{_JS}">'

PAYLOADS = {
    # scripts
    "script": "<script>fetch('{hit}')</script>",
    "script src": '<script src="{hit}"></script>',
    "svg script": "<svg><script>fetch('{hit}')</script></svg>",
    "svg script href": '<svg><script href="{hit}"></script></svg>',
    # event handlers, on every kind of element
    "img onerror": _ERROR,
    "body onload": f'<body onload="{_JS}">',
    "svg onload": f'<svg onload="{_JS}"></svg>',
    "details ontoggle": f'<details open ontoggle="{_JS}"><summary>s</summary>d</details>',
    "input autofocus onfocus": f'<input autofocus onfocus="{_JS}">',
    "style onload": f'<style onload="{_JS}"></style>',
    "iframe onload": f'<iframe onload="{_JS}"></iframe>',
    "video source onerror": f'<video><source onerror="{_JS}"></video>',
    "svg animate onbegin": f'<svg><animate onbegin="{_JS}" attributeName="x" dur="1s"></animate></svg>',
    "math mtext img onerror": f"<math><mtext>{_ERROR}</mtext></math>",
    "custom element onfocus": f'<x-card tabindex="1" autofocus onfocus="{_JS}">x</x-card>',
    # markup that a browser parses otherwise than lxml (mutation XSS)
    "svg style": f"<svg><style>{_ERROR}</style></svg>",
    "math style": f"<math><style>{_ERROR}</style></math>",
    "math mglyph style": f"<math><mtext><table><mglyph><style>{_ERROR}</style></mglyph></table></mtext></math>",
    "svg </p> style": "<svg></p><style><a id=\"</style><img src=x onerror=fetch('{hit}')>\"></a></style></svg>",
    "noscript title": "<noscript><p title=\"</noscript><img src=x onerror=fetch('{hit}')>\"></p></noscript>",
    "xmp title": "<xmp><p title=\"</xmp><img src=x onerror=fetch('{hit}')>\"></p></xmp>",
    "textarea title": "<textarea><p title=\"</textarea><img src=x onerror=fetch('{hit}')>\"></p></textarea>",
    "template": f"<template>{_ERROR}</template>",
    "comment <!-->": f"<!-->{_ERROR}-->",
    "comment --!>": f"<!-- --!>{_ERROR} -->",
    "CDATA": f"<![CDATA[>{_ERROR}]]>",
    "processing instruction": f"<?x >{_ERROR}?>",
    "style url( deletion forms </style>": "<style></sturl(x)yle><script>fetch('{hit}')</script></style>",
    # documents embedded
    "iframe src": '<iframe src="{hit}"></iframe>',
    "iframe srcdoc": "<iframe srcdoc=\"<script>fetch('{hit}')</script>\"></iframe>",
    "iframe javascript:": "<iframe src=\"javascript:fetch('{hit}')\"></iframe>",
    "iframe data:": "<iframe src=\"data:text/html,<script>fetch('{origin}{hit}')</script>\"></iframe>",
    "object data": '<object data="{hit}"></object>',
    "embed src": '<embed src="{hit}">',
    # navigation and the document's base
    "meta refresh": '<meta http-equiv="refresh" content="0;url={hit}">',
    "base href": '<base href="{hit}/"><img src="x.png" alt="b">',
    "link stylesheet": '<link rel="stylesheet" href="{hit}">',
    "link preload": '<link rel="preload" as="image" href="{hit}">',
    # URLs an element loads
    "img src": '<img src="{hit}" alt="i">',
    "img srcset": '<img srcset="{hit} 1x" alt="i">',
    "picture source srcset": '<picture><source srcset="{hit}"><img alt="p"></picture>',
    "video poster": '<video poster="{hit}"></video>',
    "audio src": '<audio src="{hit}" preload="auto"></audio>',
    "input type=image": '<input type="image" src="{hit}">',
    "image element": '<image src="{hit}">',
    "table background": '<table background="{hit}"><tr><td>cell</td></tr></table>',
    "svg image href": '<svg><image href="{hit}" width="9" height="9"></image></svg>',
    "svg image xlink:href": '<svg><image xlink:href="{hit}" width="9" height="9"></image></svg>',
    "svg use href": '<svg><use href="{hit}#x"></use></svg>',
    "svg set to": '<svg><image width="9" height="9"><set attributeName="href" to="{hit}"></set></image></svg>',
    "svg animate values": (
        '<svg><image width="9" height="9"><animate attributeName="href" values="{hit}" '
        'dur="1s"></animate></image></svg>'
    ),
    # script URLs that run on a click
    "a javascript:": "<a href=\"javascript:fetch('{hit}')\">link</a>",
    "a &#106;avascript:": "<a href=\"&#106;avascript:fetch('{hit}')\">link</a>",
    "a java&#9;script:": "<a href=\"java&#9;script:fetch('{hit}')\">link</a>",
    "a vbscript:": '<a href="vbscript:msgbox(1)">link</a>',
    "a data:": "<a href=\"data:text/html,<script>fetch('{origin}{hit}')</script>\">link</a>",
    "a ping": '<a href="#x" ping="{hit}">link</a>',
    "form action": '<form action="javascript:fetch(\'{hit}\')"><input type="submit"></form>',
    "button formaction": "<form><button formaction=\"javascript:fetch('{hit}')\">go</button></form>",
    "svg a xlink:href": '<svg><a xlink:href="javascript:fetch(\'{hit}\')"><text y="9">x</text></a></svg>',
    "svg animate values javascript:": (
        '<svg><a><animate attributeName="href" values="javascript:fetch(\'{hit}\')"></animate>'
        '<text y="9">x</text></a></svg>'
    ),
    "svg set to javascript:": (
        '<svg><a><set attributeName="href" to="javascript:fetch(\'{hit}\')"></set>'
        '<text y="9">x</text></a></svg>'
    ),
    "math href": "<math href=\"javascript:fetch('{hit}')\"><mi>x</mi></math>",
    # CSS that loads, in every spelling
    "style @import string": '<style>@import "{hit}";</style>',
    "style @import url()": "<style>@import url({hit});</style>",
    "style background url()": "<style>body { background: url({hit}) }</style>",
    "style attribute url()": '<div style="background-image: url({hit})">x</div>',
    "style attribute URL()": '<div style="background: URL({hit})">x</div>',
    "css escape \\75rl(": '<div style="background: \\75rl({hit})">x</div>',
    "css escape @\\69mport": '<style>@\\69mport "{hit}";</style>',
    "css entity &#117;rl(": '<div style="background: &#117;rl({hit})">x</div>',
    "css image-set()": "<div style=\"background-image: image-set('{hit}' 1x)\">x</div>",
    "css -webkit-image-set()": "<div style=\"background-image: -webkit-image-set('{hit}' 1x)\">x</div>",
    "css @font-face": "<style>@font-face { font-family: f; src: url({hit}) } p { font-family: f }</style>",
    "css list-style-image": "<style>li { list-style-image: url({hit}) }</style><ul><li>item</li></ul>",
    "css expression()": "<div style=\"width: expression(fetch('{hit}'))\">x</div>",
    "svg style @&#105;mport": '<svg><style>@&#105;mport "{hit}";</style></svg>',
}

# The payloads that send no request from the raw page in headless Chromium
# with no one clicking: script URLs that run on a click, markup inert in a
# browser (a template's, IE's expression()), mutations that only a sanitiser
# (the report's own, once: a ``url(`` deletion that formed ``</style>``) or
# another parser makes dangerous.
SILENT_UNCLICKED = frozenset(
    [
        *["a javascript:", "a &#106;avascript:", "a java&#9;script:", "a vbscript:"],
        *["a data:", "a ping", "form action", "button formaction", "math href"],
        *["svg a xlink:href", "svg animate values javascript:", "svg set to javascript:"],
        *["input autofocus onfocus", "template", "css expression()", "math mglyph style"],
        "style url( deletion forms </style>",
    ]
)
FIRES_UNCLICKED = frozenset(PAYLOADS) - SILENT_UNCLICKED


def hit_path(name: str) -> str:
    """The path a payload's request goes to: one URL-safe word a payload."""
    return "/hit/" + "".join(c if c.isalnum() else "-" for c in name)


def page(name: str, origin: str = "http://127.0.0.1") -> str:
    """A page with ``name``'s payload between two paragraphs of an article."""
    payload = PAYLOADS[name].replace("{hit}", hit_path(name)).replace("{origin}", origin)
    return (
        f"<!DOCTYPE html><html><head><title>{name}</title></head><body>"
        f"<h1>The river</h1><p>{ARTICLE}</p>{payload}<p>{ARTICLE} Again.</p></body></html>"
    )
