"""Scrapy commands (``COMMANDS_MODULE = "scrapy_declutter.commands"``, or the
``scrapy.commands`` entry point the package installs)."""
