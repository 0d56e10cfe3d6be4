"""The page-object profile: callbacks ask for an ``Article`` and get it filled.

Select it with ``SCRAPY_PROJECT=poet`` (``scrapy.cfg``)::

    SCRAPY_PROJECT=poet scrapy crawl news_articles -O articles.jsonl

scrapy-poet builds each callback's page object; scrapy-declutter's provider
gives it the page's extraction (text, metadata, article probability), run in
the add-on's workers with its ``DECLUTTER_*`` settings. Needs the ``poet``
extra: ``python -m pip install -e ".[poet]"`` in the checkout.
"""

from web_poet import ApplyRule
from zyte_common_items import Article

from newsroom.settings import *  # noqa: F403
from scrapy_declutter.scrapy_layer.poet import DeclutterArticlePage, DeclutterResultProvider

# The page-object spider imports scrapy-poet, so only this profile loads its module.
SPIDER_MODULES = ["newsroom.spiders", "newsroom.spiders_poet"]

# scrapy-poet instead of the add-on: the page object's provider extracts each
# page itself (the add-on's middleware would extract it a second time).
ADDONS = {"scrapy_poet.Addon": 300}
SCRAPY_POET_PROVIDERS = {DeclutterResultProvider: 1000}
# A callback that asks for zyte-common-items' Article gets scrapy-declutter's.
SCRAPY_POET_RULES = [ApplyRule("", use=DeclutterArticlePage, to_return=Article)]
