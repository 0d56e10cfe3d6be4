"""The Scrapy layer: settings to options, the core off the reactor thread, results into items.

Nothing here is imported by the core; ``page`` (what a worker process runs)
imports only the core, so a worker process never imports Scrapy."""
