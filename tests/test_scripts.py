"""Pages in scripts written without spaces: Chinese, Japanese, Thai."""

# ruff: noqa: RUF001 (their punctuation is fullwidth)

import pytest

from scrapy_declutter import extract
from scrapy_declutter.core.document import build_document
from scrapy_declutter.core.languages import validate_language
from scrapy_declutter.outputs.dates import parse_date
from scrapy_declutter.stages.comment_section import comment_section
from scrapy_declutter.stages.rules.hard_rules import COPYRIGHT
from scrapy_declutter.stages.rules.region import CONTENT_REGION
from scrapy_declutter.stages.rules.threshold import BELOW_THRESHOLD
from tests.factory import justext_document

ARTICLE = """<html lang="zh-CN"><head><title>风能新规发布 - 新闻网</title></head><body>
<nav><a href="/">首页</a> <a href="/news">新闻</a> <a href="/sports">体育</a>
<a href="/money">财经</a></nav>
<article><h1>风能新规发布</h1>
<p class="author">作者：张伟</p><p class="date">发布于2017年3月9日</p>
<p>今天政府<b>宣布</b>了新的<a href="/wind">风能</a>发展规则，这些规则将从明年开始实施。
各省需要划定更多的土地，用于建设新的风力发电场。</p>
<p>专家表示，这是十年来最重要的能源政策之一，将影响数百万家庭的电费。他们认为，这项政策的影响会持续很多年。</p>
</article>
<footer><p>版权所有 © 2017 新闻网 | <a href="/about">关于我们</a></p></footer>
</body></html>"""

# One question and two replies, each under its poster's name and date.
POSTS = (
    (
        "たなか",
        "2017年3月9日(木) 10:12",
        "最近、家の近くに風力発電所ができると聞きました。"
        "騒音や景観の問題はどのくらいあるのでしょうか。実際に近くに住んでいる方の意見を聞きたいです。",
    ),
    (
        "すずき",
        "2017年3月9日(木) 11:40",
        "私の家から五百メートルほどの所に風車がありますが、"
        "夜は少し音が聞こえます。でも慣れてしまえば気になりません。景観はむしろ好きになりました。",
    ),
    (
        "やまだ",
        "2017年3月10日(金) 08:05",
        "騒音については、風車からの距離と風向きによって"
        "かなり違うと思います。計画の説明会に参加して、具体的な数字を確認するのがいいですよ。",
    ),
)
THREAD = (
    "<html><head><title>風力発電について質問です - 掲示板</title></head><body>"
    '<header><a href="/">ホーム</a> <a href="/forum">掲示板</a> <a href="/login">ログイン</a> '
    '<a href="/help">ヘルプ</a></header><main><h1>風力発電について質問です</h1>'
    + "".join(
        f'<div class="post"><div class="user"><a href="/u/{name}">{name}</a></div>'
        f'<div class="date">{date}</div><div class="body"><p>{text}</p></div></div>'
        for name, date, text in POSTS
    )
    + '</main><footer><a href="/terms">利用規約</a> <a href="/privacy">プライバシー</a>'
    "<p>Copyright © 2017 掲示板</p></footer></body></html>"
)


# A blog post whose paragraphs hold few of the Chinese stoplist's characters,
# and the comments under it, in an element named for them.
POST = (
    "微软公司发布新版开发工具，支持多种编程语言，包括C#、C++、Java等，"
    "面向企业用户提供云端部署服务，价格另行公布，首批用户名单年底公布。",
    "新版工具采用全新界面设计，编译速度提升三倍，内存占用减少一半，"
    "调试功能更加完善，团队协作功能同步上线，开发者社区反响热烈。",
    "业内专家认为，此举将巩固微软在开发工具市场领先地位，竞争对手压力增大，"
    "未来价格竞争或将加剧，中小企业用户有望受益。",
)
REPLIES = (
    "写得很好，支持一下！我一直在用他们的工具，希望新版本更稳定。",
    "请问新版本什么时候可以下载？我想试用一下看看效果如何。",
    "价格是多少？如果太贵的话我们公司可能还是用旧版本吧。",
)
BLOG_POST = (
    '<html lang="zh"><head><title>新版开发工具发布</title></head><body>'
    '<div class="post"><h2>新版开发工具发布</h2>'
    + "".join(f"<p>{text}</p>" for text in POST)
    + '</div><div id="comments"><h3>评论</h3>'
    + "".join(
        f"<h4>re: 新版开发工具发布 2004-12-27 12:4{n} 网友{n}</h4><p>{text}</p>"
        for n, text in enumerate(REPLIES)
    )
    + "</div></body></html>"
)


def test_comments_beside_a_chinese_post_the_model_scores_as_content_are_set_apart():
    document = justext_document(BLOG_POST)
    # jusText's stopword bars call two of the post's paragraphs bad: unscored,
    # too little text reads as an article beside the comments
    assert [b.cf_label for b in document.blocks if b.text in POST][:2] == ["bad"] * 2
    assert comment_section(document) is None
    for block in document.blocks:
        block.score = 0.8 if block.text in POST else 0.3
    marked = comment_section(document)
    assert marked is not None
    in_section = {block.text for block, in_it in zip(document.blocks, marked) if in_it}
    assert set(REPLIES) <= in_section
    assert not in_section & set(POST)


def counts(html: str, language: str | None) -> list[tuple[int, int]]:
    return [(b.words, b.stopwords) for b in build_document(html, language=language).blocks]


def test_a_han_or_kana_character_is_a_word_and_punctuation_none():
    # 我 的 猫 是 黑 色 的: seven words; 我, 的, 是, 的 are function words
    assert counts("<p>我的猫是黑色的。</p>", "Chinese") == [(7, 4)]
    # 私 は 猫 が 好 き で す: eight; は, が, き, で, す are on the list
    assert counts("<p>私は猫が好きです。</p>", "Japanese") == [(8, 5)]
    # Latin words and digits in Chinese text stay words: iphone, 15, 的, 价, 格
    assert counts("<p>iPhone 15的价格</p>", "Chinese") == [(5, 1)]


def test_thai_counts_a_word_per_four_letters():
    # no stoplist for Thai: words only
    assert counts("<p>สวัสดีครับ</p>", None) == [(3, 0)]  # 10 letters
    assert counts("<p>a สวัสดีครับผม</p>", None) == [(4, 0)]  # a, and 12 letters: 3


def test_pages_without_those_scripts_count_as_before():
    assert counts("<p>The cat, the hat.</p><p>Dogs</p>", "English") == [(4, 2), (1, 0)]


def test_the_language_comes_from_the_declaration_or_the_script():
    assert extract(ARTICLE).stoplist == "Chinese"
    assert extract(ARTICLE.replace('lang="zh-CN"', "")).stoplist == "Chinese"  # Han, no kana
    assert extract(THREAD).stoplist == "Japanese"  # kana among the Han
    assert extract(THREAD, content_language="zh-TW").stoplist == "Chinese"
    assert validate_language("zh") == "Chinese" and validate_language("ja") == "Japanese"


def test_chinese_article_between_a_menu_and_a_footer():
    result = extract(ARTICLE)
    blocks = {block.text[:4]: block for block in result.blocks}
    for start in ("风能新规", "今天政府", "专家表示"):
        assert blocks[start].is_good and blocks[start].reason == CONTENT_REGION
    assert not blocks["首页 新"].is_good and blocks["首页 新"].reason == BELOW_THRESHOLD
    assert not blocks["版权所有"].is_good and blocks["版权所有"].reason == COPYRIGHT
    # the paragraphs read as prose: a third and more of their characters function words
    assert blocks["今天政府"].stopword_density > 0.3
    assert blocks["专家表示"].stopword_density > 0.3


def test_japanese_thread_keeps_every_reply():
    result = extract(THREAD)
    replies = [b for b in result.blocks if b.text.startswith(("最近、", "私の家", "騒音に"))]
    assert len(replies) == 3
    assert all(b.is_good and b.reason == CONTENT_REGION for b in replies)
    menu, *_, footer = result.blocks
    assert not menu.is_good and menu.reason == BELOW_THRESHOLD
    assert not footer.is_good and footer.reason == COPYRIGHT


def test_markdown_keeps_the_text_unbroken_across_inline_tags():
    markdown = extract(ARTICLE).markdown
    assert "今天政府**宣布**了新的[风能](/wind)发展规则" in markdown
    # a line break in the HTML between two Han characters is white space, as in English
    assert "这些规则将从明年开始实施。 各省" in markdown


def test_title_author_and_date():
    metadata = extract(ARTICLE).metadata
    assert metadata.title == "风能新规发布"
    assert (metadata.author, metadata.date) == ("张伟", "2017-03-09")
    assert extract(THREAD).metadata.date == "2017-03-09"


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("2017年3月9日", "2017-03-09"),
        ("2017年 3月 9日(木) 12:00", "2017-03-09"),
        ("2017/03/09", "2017-03-09"),
        ("发布于2017/03/09", "2017-03-09"),
        ("投稿日：2017.3.9", "2017-03-09"),
        ("3月9日(木)", None),  # no year
        ("2017年13月1日", None),
    ],
)
def test_chinese_and_japanese_dates(text, date):
    assert parse_date(text) == date
