"""Settings of the example project: the one line that matters is ADDONS."""

BOT_NAME = "newsroom"
SPIDER_MODULES = ["newsroom.spiders"]
NEWSPIDER_MODULE = "newsroom.spiders"

# scrapy-declutter: every item gets the page's clean text and its labelled blocks.
ADDONS = {"scrapy_declutter.Addon": 100}
# Items get the text only by default; this adds the kept blocks (none / kept / all).
DECLUTTER_BLOCKS = "kept"

ROBOTSTXT_OBEY = True
FEED_EXPORT_ENCODING = "utf-8"
LOG_LEVEL = "INFO"
