"""``scrapy declutter``: run as a user runs it, in a subprocess."""

import configparser
import functools
import gzip
import http.server
import json
import os
import re
import socket
import subprocess
import sys
import threading
from pathlib import Path

import lxml.html
import pytest
from scrapy.commands import ScrapyCommand
from scrapy.utils.misc import load_object

from tests.comment_pages import COMMENTS, blog_page
from tests.site import ARTICLE_EN, ARTICLE_EN_SENTENCE, BOILERPLATE, PNG

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def run(tmp_path):
    """Run ``scrapy declutter ...`` with the command registered through COMMANDS_MODULE."""
    (tmp_path / "cmdsettings.py").write_text(
        'COMMANDS_MODULE = "scrapy_declutter.scrapy_layer.commands"\n'
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), str(tmp_path)]),
        "SCRAPY_SETTINGS_MODULE": "cmdsettings",
    }

    def run(*args):
        return subprocess.run(
            run.command(*args), **run.options, stdout=subprocess.PIPE, timeout=120
        )

    run.command = lambda *args: [sys.executable, "-m", "scrapy", "declutter", *args]
    run.options = {"cwd": tmp_path, "env": env, "text": True, "stderr": subprocess.PIPE}
    return run


@pytest.fixture
def page(tmp_path):
    path = tmp_path / "page.html"
    path.write_bytes(ARTICLE_EN)
    return path


@pytest.fixture
def http_server(tmp_path):
    """A plain threaded HTTP server: the test process's reactor is not running here."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "article.html").write_bytes(ARTICLE_EN)
    (site / "image.png").write_bytes(PNG)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=site)
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_prints_the_clean_text_of_a_file(run, page):
    result = run(str(page))
    assert result.returncode == 0, result.stderr
    assert ARTICLE_EN_SENTENCE in result.stdout
    assert not any(text in result.stdout for text in BOILERPLATE)


def test_blocks_lists_every_block_with_its_label(run, page):
    result = run("--blocks", str(page))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["label", "cf", "h", "length", "links", "stops", "score", "text"]
    article = next(line for line in lines if ARTICLE_EN_SENTENCE[:40] in line)
    cookie = next(line for line in lines if BOILERPLATE[0] in line)
    heading = next(line for line in lines if "New ferry terminal opens next spring" in line)
    assert article.split()[:2] == ["good", "good"]
    assert cookie.split()[0] == "bad"
    assert heading.split()[2] == "h"


def test_markdown_prints_the_kept_text_in_its_shape(run, page):
    result = run("--markdown", str(page))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("# New ferry terminal opens next spring\n\n")
    assert ARTICLE_EN_SENTENCE in result.stdout
    assert not any(text in result.stdout for text in BOILERPLATE)


@pytest.mark.slow
def test_metadata_prints_json_then_the_markdown_if_asked(run, page):
    result = run("--metadata", str(page))
    assert result.returncode == 0, result.stderr
    metadata = json.loads(result.stdout)
    assert (metadata["title"], metadata["language"], metadata["date"]) == (
        "New ferry terminal opens",
        "en",
        None,
    )
    assert metadata["url"] is None  # the page's own URL is a file: URL, and url is http(s)
    both = run("--metadata", "--markdown", str(page)).stdout
    assert both.startswith(result.stdout) and "# New ferry terminal" in both[len(result.stdout) :]


@pytest.mark.slow
def test_comments_prints_the_posts_or_nothing(run, tmp_path):
    commented = tmp_path / "commented.html"
    commented.write_text(blog_page())
    result = run("--comments", str(commented))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "\n\n".join(COMMENTS) + "\n"
    form_only = tmp_path / "form-only.html"
    form_only.write_text(blog_page(()))
    result = run("--comments", str(form_only))
    assert (result.returncode, result.stdout) == (0, "")  # the form's notes are no comment
    assert "twenty years" not in run(str(commented)).stdout  # never in the text


def test_html_report_is_written_and_only_its_place_printed(run, page, tmp_path):
    report = tmp_path / "report.html"
    result = run("--html", str(report), str(page))
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"report written to {report}\n"
    html = lxml.html.fromstring(report.read_text())
    kept = html.xpath("//div[contains(@class, 'block kept')]")
    removed = html.xpath("//div[contains(@class, 'block removed')]")
    assert any(ARTICLE_EN_SENTENCE in block.text_content() for block in kept)
    assert any(BOILERPLATE[0] in block.text_content() for block in removed)


def test_html_report_shows_what_weighed_most_in_the_default_pipelines_scores(run, page, tmp_path):
    report = tmp_path / "report.html"
    result = run("--html", str(report), str(page))
    assert result.returncode == 0, result.stderr
    html = lxml.html.fromstring(report.read_text())
    evidence = [e.text_content() for e in html.find_class("evidence")]
    assert evidence and all("weighed most: " in text for text in evidence)
    assert any(re.search(r"[-+]\d+\.\d\d", text) for text in evidence)


def test_html_report_shows_the_threshold_from_the_settings(run, page, tmp_path):
    report = tmp_path / "report.html"
    result = run("--html", str(report), "-s", "DECLUTTER_CONTENT_THRESHOLD=0.37", str(page))
    assert result.returncode == 0, result.stderr
    threshold = lxml.html.fromstring(report.read_text()).find_class("threshold")[0]
    assert "0.37" in threshold.text_content()


def test_fetches_a_url_with_scrapy(run, http_server):
    result = run(f"{http_server}/article.html")
    assert result.returncode == 0, result.stderr
    assert ARTICLE_EN_SENTENCE in result.stdout


@pytest.mark.slow
def test_a_url_that_is_not_html_fails_with_a_message(run, http_server):
    result = run(f"{http_server}/image.png")
    assert result.returncode == 1
    assert "not an HTML page" in result.stderr


@pytest.mark.slow
def test_a_file_that_is_not_a_page_fails_with_a_message(run, tmp_path):
    compressed = tmp_path / "page.html.gz"
    compressed.write_bytes(gzip.compress(ARTICLE_EN))
    result = run(str(compressed))
    assert result.returncode == 1
    assert result.stderr.startswith(f"not an HTML page: {compressed}")
    # named as HTML, but binary data: the extraction refuses it
    disguised = tmp_path / "disguised.html"
    disguised.write_bytes(gzip.compress(ARTICLE_EN))
    result = run(str(disguised))
    assert result.returncode == 1
    assert "cannot extract" in result.stderr and "binary data" in result.stderr
    assert "Traceback" not in result.stderr


# A small but real PDF: text in a content stream, as a PDF writer leaves it.
PDF = (
    b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
    b"4 0 obj\n<< /Length 44 >>\nstream\nBT /F1 12 Tf 72 712 Td (Hello world) Tj ET\n"
    b"endstream\nendobj\n%%EOF\n"
)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("real.pdf", PDF, "not an HTML page: real.pdf"),
        ("empty.html", b"", "an empty file: empty.html"),
        ("data.json", b'{"text": "not a page"}', "not an HTML page: data.json"),
    ],
)
def test_a_local_file_that_is_no_html_page_fails_with_its_reason(
    run, tmp_path, name, content, reason
):
    (tmp_path / name).write_bytes(content)
    result = run(name)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]  # one line
    assert result.stderr.startswith(reason)


@pytest.mark.slow
def test_an_html_page_with_nothing_kept_says_so_on_stderr(run, tmp_path):
    (tmp_path / "short.html").write_text("<html><body><p>Home</p></body></html>")
    result = run("short.html")
    assert result.returncode == 0
    assert result.stdout == "\n"
    assert "no block of short.html was kept" in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    "setting", ["DECLUTTER_LENGTH_LOW=many", "DECLUTTER_ENABLED=maybe", "DECLUTTER_HTML_FIELD=text"]
)
def test_a_bad_setting_is_a_usage_error_naming_it(run, page, setting):
    result = run("-s", setting, str(page))
    assert result.returncode == 2
    name, value = setting.split("=")
    assert f"{name}: expected" in result.stderr and repr(value) in result.stderr


@pytest.mark.slow
def test_settings_choose_the_options(run, page):
    result = run(
        "-s",
        "DECLUTTER_PIPELINE=justext",
        "-s",
        "DECLUTTER_LENGTH_LOW=5000",
        "-s",
        "DECLUTTER_LENGTH_HIGH=5000",
        str(page),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


def test_entry_point_is_declared_for_pip_installs():
    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg")
    entries = config["options.entry_points"]["scrapy.commands"].split("\n")
    name, target = (part.strip() for part in next(e for e in entries if e.strip()).split("="))
    assert name == "declutter"
    assert issubclass(load_object(target.replace(":", ".")), ScrapyCommand)


@pytest.mark.slow
@pytest.mark.parametrize("obey", ["False", "True"])  # True: a new project's robots.txt first
def test_a_url_that_cannot_be_fetched_fails_in_one_line(run, obey):
    with socket.socket() as unused:  # a port that was free, and that nothing listens on
        unused.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{unused.getsockname()[1]}/article.html"
    result = run("-s", f"ROBOTSTXT_OBEY={obey}", "-s", "RETRY_TIMES=1", url)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith(f"could not fetch {url}: ")
    assert "refused" in result.stderr


# 20,000 blocks: far more lines than a pipe holds, so the command writes into
# the closed pipe; 20 blocks: fewer than the output buffer holds, so the pipe
# is found closed when Python flushes it.
@pytest.mark.slow
@pytest.mark.parametrize(("paragraphs", "read"), [(20_000, 1), (20, 0)])
def test_a_closed_stdout_ends_the_command_quietly(tmp_path, run, paragraphs, read):
    texts = (f"<p>Paragraph {i} of a long page, with a few words.</p>" for i in range(paragraphs))
    (tmp_path / "page.html").write_text(f"<html><body>{''.join(texts)}</body></html>")
    command = run.command("--blocks", "page.html")
    # buffered, as a user's Python writes into a pipe
    env = {k: v for k, v in run.options["env"].items() if k != "PYTHONUNBUFFERED"}
    options = {**run.options, "env": env}
    with subprocess.Popen(command, **options, stdout=subprocess.PIPE) as head:
        for _ in range(read):
            assert head.stdout.readline().startswith("label")
        head.stdout.close()  # as ``| head -1`` does
        assert head.wait(timeout=120) != 0
        assert head.stderr.read() == ""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "error"),
    [
        (["--blocks", "--comments"], "--blocks and --comments do not combine"),
        (["--blocks", "--markdown"], "--blocks and --markdown do not combine"),
        (["--html", "r.html", "--comments"], "--html and --comments do not combine"),
        (["--html", "r.html", "--markdown"], "--html and --markdown do not combine"),
        (["--html", "r.html", "--metadata"], "--html and --metadata do not combine"),
        (["--report", "r.html"], "unknown option: --report"),
        (["--text"], "unknown option: --text"),
    ],
)
def test_options_that_cannot_be_honoured_are_named_in_a_usage_error(run, page, options, error):
    result = run(*options, str(page))
    assert result.returncode == 2
    assert result.stdout == ""
    errors = [line for line in result.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and error in errors[0]
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_metadata_combines_with_the_blocks_and_the_comments(run, page):
    for other in ("--blocks", "--comments"):
        result = run("--metadata", other, str(page))
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("{\n")
