"""Scrapy commands (``COMMANDS_MODULE = "scrapy_declutter.scrapy_layer.commands"``, or the
``scrapy.commands`` entry point the package installs)."""
