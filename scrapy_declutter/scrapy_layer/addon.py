"""The add-on: ``ADDONS = {"scrapy_declutter.Addon": 100}`` turns everything on."""

from scrapy.settings import BaseSettings

from scrapy_declutter.scrapy_layer.config import read_enabled
from scrapy_declutter.scrapy_layer.downloadermiddleware import DeclutterMiddleware
from scrapy_declutter.scrapy_layer.itempipeline import DeclutterPipeline
from scrapy_declutter.scrapy_layer.spidermiddleware import DeclutterSpiderMiddleware
from scrapy_declutter.scrapy_layer.state import checked_settings

# Priorities. The downloader middleware sits below HttpCompressionMiddleware
# (590), RedirectMiddleware (600) and RetryMiddleware (550), so it sees the
# final, decompressed response; the spider middleware sits close to the spider,
# so other spider middlewares see filled items; the item pipeline runs before
# the usual project pipelines (300).
DOWNLOADER_MIDDLEWARE_PRIORITY = 540
SPIDER_MIDDLEWARE_PRIORITY = 950
ITEM_PIPELINE_PRIORITY = 100


class Addon:
    """Adds the two middlewares and the item pipeline, unless
    ``DECLUTTER_ENABLED`` is False (then the components would also refuse to
    start). A component the project already lists keeps its priority. A bad
    ``DECLUTTER_ENABLED`` (``maybe``) stops the crawl with one ERROR line
    naming it (``checked_settings``)."""

    def update_settings(self, settings: BaseSettings) -> None:
        if not checked_settings(lambda: read_enabled(settings)):
            return
        for setting, component, priority in (
            ("DOWNLOADER_MIDDLEWARES", DeclutterMiddleware, DOWNLOADER_MIDDLEWARE_PRIORITY),
            ("SPIDER_MIDDLEWARES", DeclutterSpiderMiddleware, SPIDER_MIDDLEWARE_PRIORITY),
            ("ITEM_PIPELINES", DeclutterPipeline, ITEM_PIPELINE_PRIORITY),
        ):
            settings.setdefault_in_component_priority_dict(setting, component, priority)
