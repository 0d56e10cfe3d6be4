"""Spiders of the scrapy-redis profile (``SCRAPY_PROJECT=redis``); they need the ``redis`` extra,
so the default profile does not load them."""
