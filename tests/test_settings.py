"""Settings: one per option, converted, validated once at start-up."""

import dataclasses

import pytest
import pytest_twisted
from scrapy.settings import Settings

from scrapy_declutter import InvalidOptionError, Options
from scrapy_declutter.scrapy_layer.config import Config, all_settings
from tests.crawling import ADDON, crawl
from tests.site import server  # noqa: F401


def test_every_option_is_a_setting_with_the_options_default():
    settings = all_settings()
    for field in dataclasses.fields(Options):
        assert settings[f"DECLUTTER_{field.name.upper()}"] == field.default


def test_defaults():
    config = Config.from_settings(Settings())
    assert config.options == Options()
    assert (config.text_field, config.blocks_field, config.html_field) == ("text", "blocks", "html")
    assert (config.blocks, config.overwrite, config.workers) == ("all", False, 0)


def test_strings_from_the_command_line_are_converted():
    config = Config.from_settings(
        Settings(
            {
                "DECLUTTER_LENGTH_LOW": "50",
                "DECLUTTER_MAX_LINK_DENSITY": "0.5",
                "DECLUTTER_NO_HEADINGS": "true",
                "DECLUTTER_LANGUAGE": "None",
                "DECLUTTER_WORKERS": "2",
                "DECLUTTER_OVERWRITE": "1",
            }
        )
    )
    assert config.options.length_low == 50
    assert config.options.max_link_density == 0.5
    assert config.options.no_headings is True
    assert config.options.language is None
    assert config.workers == 2 and config.overwrite is True


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DECLUTTER_LENGTH_LOW", "many"),
        ("DECLUTTER_LENGTH_LOW", -5),
        ("DECLUTTER_LENGTH_LOW", 500),  # above length_high
        ("DECLUTTER_STOPWORDS_HIGH", 2.0),
        ("DECLUTTER_LANGUAGE", "Klingon"),
        ("DECLUTTER_PIPELINE", "nope"),
        ("DECLUTTER_NO_HEADINGS", "perhaps"),
        ("DECLUTTER_BLOCKS", "some"),
        ("DECLUTTER_TEXT_FIELD", ""),
        ("DECLUTTER_WORKERS", -1),
        ("DECLUTTER_MAX_BODY_SIZE", "big"),
        ("DECLUTTER_OVERWRITE", "sometimes"),
        ("DECLUTTER_LENGHT_LOW", 10),
    ],
)
def test_bad_values_name_the_setting(name, value):
    with pytest.raises(InvalidOptionError) as error:
        Config.from_settings(Settings({name: value}))
    assert str(error.value).startswith(name + ":")


def test_unknown_setting_suggests_the_close_one():
    with pytest.raises(InvalidOptionError, match="did you mean DECLUTTER_LENGTH_LOW"):
        Config.from_settings(Settings({"DECLUTTER_LENGHT_LOW": 10}))


@pytest_twisted.ensureDeferred
async def test_a_bad_setting_stops_the_crawl_before_any_request(server):
    requests = []
    server.root.getChildWithDefault = lambda *args: requests.append(args)  # never called
    with pytest.raises(InvalidOptionError, match=r"^DECLUTTER_MAX_LINK_DENSITY:"):
        await crawl(
            settings={**ADDON, "DECLUTTER_MAX_LINK_DENSITY": 3}, urls=[server.url("article-en")]
        )
    assert requests == []
