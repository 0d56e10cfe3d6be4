"""The Scrapy layer: settings to options, the core off the reactor thread, results into items.

Nothing here is imported by the core; ``worker_task`` imports only the core, so a
worker process never imports Scrapy."""
