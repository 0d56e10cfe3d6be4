"""One state per crawler, shared by the layer's three components."""

import logging
import os

from scrapy.utils.test import get_crawler

from scrapy_declutter import DeclutterMiddleware, DeclutterPipeline, DeclutterSpiderMiddleware


def test_the_components_of_a_crawler_share_its_config_workers_and_recorder():
    crawler = get_crawler(settings_dict={"DECLUTTER_WORKERS": 2})
    downloader = DeclutterMiddleware.from_crawler(crawler)
    spider = DeclutterSpiderMiddleware.from_crawler(crawler)
    pipeline = DeclutterPipeline.from_crawler(crawler)
    assert downloader.config is spider.config is pipeline.config
    assert downloader.config.workers == 2
    assert downloader.workers is pipeline.workers
    assert downloader.recorder is spider.recorder is pipeline.recorder

    other = DeclutterMiddleware.from_crawler(get_crawler(settings_dict={"DECLUTTER_WORKERS": 1}))
    assert other.workers is not downloader.workers
    assert other.recorder is not downloader.recorder
    assert other.config.workers == 1


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def test_more_worker_processes_than_cores_is_warned_once(caplog):
    crawler = get_crawler(settings_dict={"DECLUTTER_WORKERS": cores() + 1})
    DeclutterMiddleware.from_crawler(crawler)
    DeclutterPipeline.from_crawler(crawler)
    [warning] = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert warning.getMessage().startswith(
        f"declutter: DECLUTTER_WORKERS = {cores() + 1} is more than the {cores()} CPU cores"
    )
    caplog.clear()
    DeclutterMiddleware.from_crawler(get_crawler(settings_dict={"DECLUTTER_WORKERS": cores()}))
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
