"""Page objects: scrapy-poet fills a callback's ``Article`` from our extraction (poet.py)."""

import gzip
import json
import logging
import subprocess
import sys

import pytest
import pytest_twisted
import scrapy

pytest.importorskip("scrapy_poet")

from web_poet import ApplyRule, field
from zyte_common_items import Article, Author

from scrapy_declutter.scrapy_layer.poet import (
    DeclutterArticlePage,
    DeclutterResultProvider,
    article_body_html,
)
from scrapy_declutter.scrapy_layer.results import PageExtraction
from tests.crawling import crawl
from tests.site import ARTICLE_EN_SENTENCE, Data

POET = {
    "ADDONS": {"scrapy_poet.Addon": 300},
    "SCRAPY_POET_PROVIDERS": {DeclutterResultProvider: 1000},
}

HOSTILE_ARTICLE = f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>Harbour gets a ferry terminal | The Harbour Times</title>
<meta name="author" content="Jane Doe; Omar Haddad">
<meta property="article:published_time" content="2024-03-05T10:00:00+00:00">
<meta name="description" content="The new terminal opens next spring.">
<meta property="og:image" content="https://img.example.org/ferry.jpg">
<link rel="canonical" href="https://news.example.org/ferry">
<script>alert("head")</script></head>
<body onload="steal()">
<ul class="menu"><li><a href="/">Home</a></li><li><a href="/world">World</a></li></ul>
<article>
<h1 onclick="steal()">Harbour gets a ferry terminal</h1>
<p onmouseover="steal()">{ARTICLE_EN_SENTENCE} will open to passengers next spring, two
years later than planned, after the builders had to replace most of the foundations
<img src="https://tracker.example.org/pixel.gif" onerror="steal()"> that were damaged in
the winter storms of the last year, &lt;script&gt;alert(1)&lt;/script&gt; said one sign.</p>
<p>According to the city council, the terminal will handle up to four thousand passengers
a day, and the old pier will be turned into a public park with a small market where local
fishermen can sell their catch directly to the people who live in the town.</p>
<script>document.write('<iframe src="https://evil.example.org/">')</script>
<p>Residents who were asked about the plans were mostly happy with them, although some of
them said that they are worried about the traffic that the new terminal will bring into
the narrow streets of the old town during the busy summer months of the year.</p>
</article>
<div class="footer">Copyright 2024 The Harbour Times. <a href="/imprint">Imprint</a></div>
</body></html>""".encode()


@pytest.fixture
def site(server):
    server.root.putChild(b"ferry", Data(HOSTILE_ARTICLE, "text/html; charset=utf-8"))
    return server


class PageSpider(scrapy.Spider):
    """Asks scrapy-poet for ``page_class`` in its callback; yields its item."""

    name = "poet_pages"
    page_class: type = DeclutterArticlePage

    def __init__(self, urls=(), meta=None, **kwargs):
        super().__init__(**kwargs)
        self.urls = list(urls)
        self.meta = meta or {}

    async def start(self):
        for url in self.urls:
            meta = dict(self.meta.get(url, {}))
            yield scrapy.Request(url, callback=self.parse_page, meta=meta, dont_filter=True)

    async def parse_page(self, response, page: DeclutterArticlePage):
        yield await page.to_item()


class ArticleSpider(PageSpider):
    """Asks for ``Article`` itself: the project's rules map it to our page object."""

    name = "poet_articles"

    async def start(self):
        for url in self.urls:
            yield scrapy.Request(url, callback=self.parse_article, dont_filter=True)

    def parse_article(self, response, article: Article):
        yield article


def by_url(items, url):
    (item,) = [item for item in items if item.url == url]
    return item


@pytest_twisted.ensureDeferred
async def test_a_callback_gets_an_article_from_the_page_object(site):
    url = site.url("ferry")
    result = await crawl(PageSpider, POET, urls=[url])

    (article,) = result.items
    assert isinstance(article, Article)
    assert article.url == url
    assert article.headline == "Harbour gets a ferry terminal"
    assert article.authors == [
        Author(name="Jane Doe", nameRaw="Jane Doe"),
        Author(name="Omar Haddad", nameRaw="Omar Haddad"),
    ]
    assert article.datePublished == "2024-03-05T00:00:00Z"
    assert article.datePublishedRaw == "2024-03-05T10:00:00+00:00"  # as the page writes it
    assert article.inLanguage == "en"
    assert article.description == "The new terminal opens next spring."
    assert article.mainImage is not None
    assert article.mainImage.url == "https://img.example.org/ferry.jpg"
    assert article.canonicalUrl == "https://news.example.org/ferry"
    assert ARTICLE_EN_SENTENCE in article.articleBody
    assert "Copyright" not in article.articleBody and "Home" not in article.articleBody
    assert article.metadata is not None
    assert article.metadata.probability > 0.5
    assert result.stats["declutter/pages"] == 1


@pytest_twisted.ensureDeferred
async def test_the_article_html_is_inert(site):
    result = await crawl(PageSpider, POET, urls=[site.url("ferry")])

    (article,) = result.items
    html = article.articleBodyHtml
    assert html.startswith("<article>") and ARTICLE_EN_SENTENCE in html
    lowered = html.lower()
    for hostile in ("<script", "<iframe", "<img", "onload", "onclick", "onerror", "src="):
        assert hostile not in lowered
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # the page's text, escaped


def test_the_article_html_escapes_every_blocks_text():
    html = article_body_html(
        [
            {"text": "<h1 onclick=x>Title</h1>", "heading": True, "label": "good"},
            {"text": 'a <img src="https://x/y.gif" onerror=z> & b', "label": "good"},
            {"text": "", "heading": False, "label": "good"},
            {"text": "Subscribe to our newsletter", "label": "bad"},  # a removed block
        ]
    )
    assert html == (
        "<article><h2>&lt;h1 onclick=x&gt;Title&lt;/h1&gt;</h2>"
        "<p>a &lt;img src=&quot;https://x/y.gif&quot; onerror=z&gt; &amp; b</p></article>"
    )
    assert article_body_html([]) is None


@pytest_twisted.ensureDeferred
async def test_an_author_from_a_byline_is_a_name(site):
    byline_page = HOSTILE_ARTICLE.replace(
        b'<meta name="author" content="Jane Doe; Omar Haddad">', b""
    ).replace(b"<article>", b'<article><p class="byline">By Ann Lee | 3 May 2024</p>')
    site.root.putChild(b"byline", Data(byline_page, "text/html; charset=utf-8"))
    result = await crawl(PageSpider, POET, urls=[site.url("byline")])

    (article,) = result.items
    assert article.authors == [Author(name="Ann Lee", nameRaw="Ann Lee")]


@pytest_twisted.ensureDeferred
async def test_a_callback_asking_for_article_gets_ours_through_a_rule(site):
    url = site.url("ferry")
    settings = {
        **POET,
        "SCRAPY_POET_RULES": [ApplyRule("", use=DeclutterArticlePage, to_return=Article)],
    }
    result = await crawl(ArticleSpider, settings, urls=[url])

    (article,) = result.items
    assert isinstance(article, Article)
    assert article.headline == "Harbour gets a ferry terminal"
    assert [author.name for author in article.authors] == ["Jane Doe", "Omar Haddad"]
    assert article.metadata.probability > 0.5


class HeadlineFromH1(DeclutterArticlePage):
    @field
    def headline(self):
        return self.css("h1::text").get().upper()


class OverridingSpider(PageSpider):
    name = "poet_override"

    async def parse_page(self, response, page: HeadlineFromH1):
        yield await page.to_item()


@pytest_twisted.ensureDeferred
async def test_a_subclass_overrides_one_field_and_keeps_the_others(site):
    result = await crawl(OverridingSpider, POET, urls=[site.url("ferry")])

    (article,) = result.items
    assert article.headline == "HARBOUR GETS A FERRY TERMINAL"
    assert [author.name for author in article.authors] == ["Jane Doe", "Omar Haddad"]
    assert ARTICLE_EN_SENTENCE in article.articleBody


@pytest_twisted.ensureDeferred
async def test_a_page_not_extracted_gives_probability_zero_and_a_reason(site, caplog):
    image, data, off = site.url("image.png"), site.url("data.json"), site.url("ferry")
    caplog.set_level(logging.INFO, logger="scrapy_declutter")
    result = await crawl(
        PageSpider, POET, urls=[image, data, off], meta={off: {"declutter": False}}
    )

    assert len(result.items) == 3
    for url in (image, data, off):
        article = by_url(result.items, url)
        assert article.metadata.probability == 0
        assert article.headline is None and article.articleBody is None
    assert result.stats["declutter/pages_skipped/not_html"] == 2
    assert result.stats["declutter/pages_skipped/disabled"] == 1
    assert "declutter/pages" not in result.stats
    assert f"no article from {image}: the page was not extracted (not_html)" in caplog.text
    assert f"no article from {off}: the page was not extracted (disabled)" in caplog.text


@pytest.mark.slow
@pytest_twisted.ensureDeferred
async def test_the_add_ons_limits_and_worker_processes_apply(site, caplog):
    costly_page = b"<html><body>" + b"<p>a short paragraph</p>" * 100_000 + b"</body></html>"
    site.root.putChild(b"costly", Data(costly_page, "text/html; charset=utf-8"))
    costly, large, article = site.url("costly"), site.url("ferry"), site.url("article-en")
    caplog.set_level(logging.INFO, logger="scrapy_declutter")
    settings = {**POET, "DECLUTTER_PAGE_MEMORY_LIMIT_MB": 1, "DECLUTTER_WORKERS": 1}
    meta = {large: {"declutter": {"max_body_size": 100}}}
    result = await crawl(PageSpider, settings, urls=[costly, large, article], meta=meta)

    assert by_url(result.items, costly).metadata.probability == 0
    assert by_url(result.items, large).metadata.probability == 0
    assert result.stats["declutter/pages_skipped/over_memory_limit"] == 1
    assert result.stats["declutter/pages_skipped/too_large"] == 1
    assert "(over_memory_limit)" in caplog.text and "(too_large)" in caplog.text
    extracted = by_url(result.items, article)  # in the worker process
    assert ARTICLE_EN_SENTENCE in extracted.articleBody
    assert extracted.metadata.probability > 0.5
    assert result.stats["declutter/pages"] == 1


def test_each_skipped_page_keeps_its_own_reason():
    # two pages skipped at once, the second counted first: each Article names
    # its page's reason, not the last one counted (a crawl's stats are shared)
    counted: list[str] = []

    def skip(reason: str):
        return lambda: counted.append(reason) or reason

    large = PageExtraction(None, "https://x/large", None, None, skip("too_large"))
    costly = PageExtraction(None, "https://x/costly", None, None, skip("over_memory_limit"))
    costly.result()
    large.result()
    assert counted == ["over_memory_limit", "too_large"]
    assert (large.reason, costly.reason) == ("too_large", "over_memory_limit")


@pytest_twisted.ensureDeferred
async def test_a_listing_reads_as_less_of_an_article_than_an_article(site):
    links = "".join(
        f'<li><a href="/story/{n}">Story number {n} of the day</a></li>' for n in range(40)
    )
    listing = f"<html><head><title>Stories</title></head><body><ul>{links}</ul></body></html>"
    site.root.putChild(b"listing", Data(listing.encode(), "text/html"))
    result = await crawl(PageSpider, POET, urls=[site.url("ferry"), site.url("listing")])

    article = by_url(result.items, site.url("ferry"))
    listing_item = by_url(result.items, site.url("listing"))
    assert listing_item.metadata.probability < 0.5 < article.metadata.probability


@pytest_twisted.ensureDeferred
async def test_the_add_on_beside_the_provider_extracts_each_page_once(site):
    # the provider runs before the add-on's middlewares: they share its extraction
    settings = {**POET, "ADDONS": {"scrapy_poet.Addon": 300, "scrapy_declutter.Addon": 100}}
    urls = [site.url("ferry"), site.url("article-en")]
    result = await crawl(PageSpider, settings, urls=urls)

    assert len(result.items) == 2
    assert all(item.articleBody for item in result.items)
    assert result.stats["declutter/pages"] == 2


@pytest_twisted.ensureDeferred
async def test_an_eager_add_on_beside_the_provider_still_gives_whole_articles(site):
    # eager: the middleware extracted before the provider, without the metadata
    settings = {
        **POET,
        "ADDONS": {"scrapy_poet.Addon": 300, "scrapy_declutter.Addon": 100},
        "DECLUTTER_EAGER": True,
    }
    result = await crawl(PageSpider, settings, urls=[site.url("ferry")])
    (article,) = result.items
    assert article.articleBody and article.headline
    assert article.metadata.probability > 0.5


@pytest.mark.slow
def test_the_package_and_the_addon_do_not_import_the_poet_libraries():
    code = (
        "import sys\n"
        "import scrapy_declutter\n"
        "from scrapy.settings import Settings\n"
        "from scrapy_declutter import Addon, DeclutterMiddleware, extract\n"
        "from scrapy_declutter.scrapy_layer import page, state, spidermiddleware\n"
        "Addon().update_settings(Settings())\n"
        "extract('<p>Some text here.</p>')\n"
        "print(sorted(m for m in sys.modules"
        " if m.split('.')[0] in ('web_poet', 'scrapy_poet', 'zyte_common_items')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.slow
def test_the_articles_fields_are_the_metadatas_on_corpus_pages(corpus_path):
    from web_poet import HttpResponse

    from benchmarks.article_fields import FIELDS
    from benchmarks.corpus import page_ids
    from scrapy_declutter.core.options import Options
    from scrapy_declutter.scrapy_layer.page import Page, extract_page
    from scrapy_declutter.scrapy_layer.poet import DeclutterResult

    for file_id in page_ids(corpus_path)[:25]:
        record = json.loads((corpus_path / "ground-truth" / f"{file_id}.json").read_text("utf-8"))
        html = gzip.decompress((corpus_path / "html" / f"{file_id}.html.gz").read_bytes())
        url = record["url"]
        page = Page(html, url, Options(), "kept", metadata=True, article_probability=True)
        data, _, _ = extract_page(page)
        # the page object's fields, read as the Article reads them (no event loop needed)
        article = DeclutterArticlePage(HttpResponse(url, html), DeclutterResult(data))
        for name, (_, _, of_metadata, of_article) in FIELDS.items():
            assert of_article(article) == of_metadata(data["metadata"]), (file_id, name)
        assert article.metadata.probability == data["article_probability"]
