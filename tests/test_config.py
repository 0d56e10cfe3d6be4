"""The layer's config: one setting per field, converted, validated once at start-up, per page."""

import dataclasses
import logging

import pytest
import pytest_twisted
from hypothesis import given, settings
from hypothesis import strategies as st
from scrapy.settings import Settings

from scrapy_declutter import InvalidOptionError, InvalidSettingError, Options
from scrapy_declutter.scrapy_layer.config import PER_PAGE_KEYS, Config, all_settings
from tests.crawling import ADDON, crawl

COMPONENTS = {  # the components listed by hand, without the add-on
    "DOWNLOADER_MIDDLEWARES": {"scrapy_declutter.DeclutterMiddleware": 540},
    "SPIDER_MIDDLEWARES": {"scrapy_declutter.DeclutterSpiderMiddleware": 950},
    "ITEM_PIPELINES": {"scrapy_declutter.DeclutterPipeline": 100},
}


def test_every_option_is_a_setting_with_the_options_default():
    settings = all_settings()
    for field in dataclasses.fields(Options):
        assert settings[f"DECLUTTER_{field.name.upper()}"] == field.default


def test_every_layer_setting_is_a_field_of_config_with_its_default():
    options = {f"DECLUTTER_{field.name.upper()}" for field in dataclasses.fields(Options)}
    layer = {name: value for name, value in all_settings().items() if name not in options}
    assert layer == {
        "DECLUTTER_ENABLED": True,
        "DECLUTTER_BLOCKS": "none",
        "DECLUTTER_TEXT_FIELD": "text",
        "DECLUTTER_BLOCKS_FIELD": "blocks",
        "DECLUTTER_MARKDOWN": False,
        "DECLUTTER_MARKDOWN_FIELD": "markdown",
        "DECLUTTER_METADATA_FIELDS": {},
        "DECLUTTER_COMMENTS_FIELD": "comments",
        "DECLUTTER_HTML_FIELD": "html",
        "DECLUTTER_OVERWRITE": False,
        "DECLUTTER_EAGER": False,
        "DECLUTTER_MAX_BODY_SIZE": 10 * 1024 * 1024,
        "DECLUTTER_WORKERS": 0,
        "DECLUTTER_THREADS": 4,
        "DECLUTTER_LARGE_PAGE_SIZE": 512 * 1024,
        "DECLUTTER_TIMEOUT": 60.0,
    }


def test_defaults():
    config = Config.from_settings(Settings())
    assert config == Config()
    assert config.options == Options()
    assert (config.text_field, config.blocks_field, config.html_field) == ("text", "blocks", "html")
    assert (config.blocks, config.overwrite, config.workers) == ("none", False, 0)


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
                "DECLUTTER_TIMEOUT": "2.5",
            }
        )
    )
    assert config.options.length_low == 50
    assert config.options.max_link_density == 0.5
    assert config.options.no_headings is True
    assert config.options.language is None
    assert config.workers == 2 and config.overwrite is True
    assert config.timeout == 2.5


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DECLUTTER_LENGTH_LOW", "many"),
        ("DECLUTTER_LENGTH_LOW", -5),
        ("DECLUTTER_LENGTH_LOW", 500),  # above length_high
        ("DECLUTTER_STOPWORDS_HIGH", 2.0),
        ("DECLUTTER_LANGUAGE", "Klingon"),
        ("DECLUTTER_PIPELINE", "nope"),
        ("DECLUTTER_PIPELINE", ["declutter"]),  # unhashable: still a named error
        ("DECLUTTER_NO_HEADINGS", "perhaps"),
        ("DECLUTTER_BLOCKS", "some"),
        ("DECLUTTER_TEXT_FIELD", ""),
        ("DECLUTTER_WORKERS", -1),
        ("DECLUTTER_THREADS", 0),
        ("DECLUTTER_LARGE_PAGE_SIZE", -1),
        ("DECLUTTER_MAX_BODY_SIZE", "big"),
        ("DECLUTTER_OVERWRITE", "sometimes"),
        ("DECLUTTER_ENABLED", "maybe"),
        ("DECLUTTER_TIMEOUT", "-1"),
        ("DECLUTTER_TIMEOUT", True),
        ("DECLUTTER_HTML_FIELD", 3),
        ("DECLUTTER_LENGHT_LOW", 10),
    ],
)
def test_bad_values_name_the_setting(name, value):
    with pytest.raises(InvalidSettingError) as error:
        Config.from_settings(Settings({name: value}))
    assert error.value.setting == name
    assert isinstance(error.value, InvalidOptionError)  # what the core raises, too
    assert str(error.value) == f"{name}: {error.value.reason}"
    assert name not in error.value.reason


@pytest.mark.parametrize(
    ("name", "lowest"),
    [
        ("DECLUTTER_MAX_BODY_SIZE", 0),
        ("DECLUTTER_WORKERS", 0),
        ("DECLUTTER_THREADS", 1),
        ("DECLUTTER_TIMEOUT", 0),
        ("DECLUTTER_PAGE_MEMORY_LIMIT_MB", 0),
    ],
)
def test_each_limit_takes_its_lowest_value_and_refuses_one_below(name, lowest):
    Config.from_settings(Settings({name: lowest}))
    Config.from_settings(Settings({name: str(lowest)}))  # as -s gives it
    for below in (lowest - 1, lowest - 0.5):
        with pytest.raises(InvalidSettingError) as error:
            Config.from_settings(Settings({name: below}))
        assert error.value.setting == name


def test_a_constraint_between_options_names_the_setting_checked():
    with pytest.raises(InvalidSettingError) as error:
        Config.from_settings(Settings({"DECLUTTER_LENGTH_HIGH": "50"}))
    assert error.value.setting == "DECLUTTER_LENGTH_LOW"
    assert error.value.reason == "expected at most length_high (50), got 70"


def test_the_text_and_the_blocks_need_two_fields():
    with pytest.raises(InvalidSettingError) as error:
        Config.from_settings(
            Settings({"DECLUTTER_BLOCKS": "all", "DECLUTTER_BLOCKS_FIELD": "text"})
        )
    assert error.value.setting == "DECLUTTER_BLOCKS_FIELD"
    assert Config.from_settings(Settings({"DECLUTTER_BLOCKS_FIELD": "text"})).blocks == "none"


@pytest.mark.parametrize(
    ("name", "value", "field", "converted"),
    [
        ("DECLUTTER_BLOCKS", "ALL", "blocks", "all"),
        ("DECLUTTER_BLOCKS", "Kept", "blocks", "kept"),
        ("DECLUTTER_PIPELINE", "JUSTEXT", "pipeline", "justext"),
        ("DECLUTTER_PIPELINE", "Boilerpipe-Article+Tree", "pipeline", "boilerpipe-article+tree"),
        ("DECLUTTER_LANGUAGE", "ENGLISH", "language", "English"),
        ("DECLUTTER_LANGUAGE", "AUTO", "language", "auto"),
        ("DECLUTTER_LANGUAGE", "NONE", "language", None),
        ("DECLUTTER_MARKDOWN", "TRUE", "markdown", True),
    ],
)
def test_a_choices_case_never_matters(name, value, field, converted):
    config = Config.from_settings(Settings({name: value}))
    assert getattr(config if hasattr(config, field) else config.options, field) == converted
    # the same rule per page
    overridden, errors = Config().for_page({field: value})
    assert errors == []
    assert getattr(overridden if hasattr(overridden, field) else overridden.options, field) == (
        converted
    )


@pytest.mark.parametrize("key", ["LANGUAGE", "Blocks", "MAX_BODY_SIZE"])
def test_a_meta_key_in_another_case_is_unknown_with_a_hint(key):
    config, [error] = Config().for_page({key: "all"})
    assert config == Config()
    assert error.key == key
    assert error.reason == f"unknown key; did you mean {key.lower()!r}?"


def test_an_option_in_another_case_is_unknown_with_a_hint():
    with pytest.raises(InvalidOptionError) as error:
        Options.from_kwargs(LENGTH_LOW=10)
    assert str(error.value) == "LENGTH_LOW: unknown option; did you mean 'length_low'?"


def test_unknown_setting_suggests_the_close_one():
    with pytest.raises(InvalidOptionError, match="did you mean DECLUTTER_LENGTH_LOW"):
        Config.from_settings(Settings({"DECLUTTER_LENGHT_LOW": 10}))


@pytest.mark.parametrize(
    ("name", "close"),
    [
        ("DECLUTTER_blocks", "DECLUTTER_BLOCKS"),
        ("declutter_language", "DECLUTTER_LANGUAGE"),
        ("Declutter_Lenght_Low", "DECLUTTER_LENGTH_LOW"),
    ],
)
def test_a_setting_name_not_in_upper_case_is_unknown_to_scrapy_and_to_us(name, close):
    # Scrapy's setting names are case-sensitive: the name is an error, not a silent alias
    with pytest.raises(InvalidSettingError) as error:
        Config.from_settings(Settings({name: "all"}))
    assert str(error.value) == f"{name}: unknown setting; did you mean {close}?"
    assert error.value.setting == name


@pytest.mark.parametrize("components", [ADDON, COMPONENTS], ids=["addon", "components"])
@pytest_twisted.ensureDeferred
async def test_a_bad_setting_stops_the_crawl_before_any_request(server, caplog, components):
    requests = []
    server.root.getChildWithDefault = lambda *args: requests.append(args)  # never called
    with pytest.raises(InvalidOptionError, match=r"^DECLUTTER_MAX_LINK_DENSITY:"):
        await crawl(
            settings={**components, "DECLUTTER_MAX_LINK_DENSITY": 3},
            urls=[server.url("article-en")],
        )
    assert requests == []
    [error] = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert error.getMessage() == (
        "declutter: DECLUTTER_MAX_LINK_DENSITY: expected a number from 0 to 1, got 3; "
        "the crawl does not start"
    )
    assert error.exc_info is None  # the line says it all: no traceback


def test_overrides_for_one_page_apply_and_convert():
    config, errors = Config().for_page(
        {
            "blocks": "all",
            "text_field": "body",
            "overwrite": "true",
            "language": "de",
            "length_low": "50",
        }
    )
    assert errors == []
    assert (config.blocks, config.text_field, config.overwrite) == ("all", "body", True)
    assert (config.options.language, config.options.length_low) == ("German", 50)
    assert Config().for_page({}) == (Config(), [])


def test_a_bad_override_is_left_out_and_the_others_apply():
    config, errors = Config().for_page(
        {"lenght_low": 10, "language": "de", "blocks": "some", "workers": 2, "overwrite": True}
    )
    assert config == Config().for_page({"language": "de", "overwrite": True})[0]
    reasons = {error.key: error.reason for error in errors}
    assert reasons == {
        "lenght_low": "unknown key; did you mean 'length_low'?",
        "blocks": "expected one of all, kept, none, got 'some'",
        "workers": "not a per-page setting (set it in the settings)",
    }


def test_overrides_are_checked_together():
    config, errors = Config().for_page({"length_low": 5000, "length_high": 5000})
    assert errors == [] and config.options.length_low == config.options.length_high == 5000
    config, errors = Config().for_page({"language": "de", "length_high": 10})
    assert config == Config().for_page({"language": "de"})[0]
    assert [(error.key, error.reason) for error in errors] == [
        ("length_high", "length_low: expected at most length_high (10), got 70")
    ]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("blocks", "some"),
        ("length_low", "many"),
        ("language", "Klingon"),
        ("text_field", ""),
        ("pipeline", {"a": 1}),
    ],
)
def test_an_override_is_checked_with_its_settings_message(key, value):
    with pytest.raises(InvalidSettingError) as error:
        Config.from_settings(Settings({f"DECLUTTER_{key.upper()}": value}))
    (override_error,) = Config().for_page({key: value})[1]
    assert override_error.key == key
    assert override_error.reason == error.value.reason


def test_per_page_keys_are_the_options_and_the_output_settings():
    options = {field.name for field in dataclasses.fields(Options)}
    assert PER_PAGE_KEYS - options == {
        "blocks",
        "text_field",
        "blocks_field",
        "markdown",
        "markdown_field",
        "metadata_fields",
        "comments_field",
        "overwrite",
        "max_body_size",
        "timeout",
    }
    assert options <= PER_PAGE_KEYS


_ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 10_000),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.sampled_from(["all", "kept", "none", "de", "justext", "0.5", "50", "true"]),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted(PER_PAGE_KEYS)) | st.text(max_size=8), _ANY_VALUE))
def test_any_override_gives_a_valid_config_and_names_each_key_left_out(overrides):
    config, errors = Config().for_page(overrides)
    assert isinstance(config, Config)  # made, so checked
    assert {error.key for error in errors} <= {str(key) for key in overrides}
    assert len(errors) == len({error.key for error in errors})
    applied = {key: value for key, value in overrides.items() if key not in {e.key for e in errors}}
    assert config == Config().replace(applied)


def test_every_output_needs_its_own_field():
    with pytest.raises(InvalidSettingError) as error:
        Config.from_settings(
            Settings({"DECLUTTER_MARKDOWN": True, "DECLUTTER_MARKDOWN_FIELD": "text"})
        )
    assert error.value.setting == "DECLUTTER_MARKDOWN_FIELD"
    assert "DECLUTTER_TEXT_FIELD" in error.value.reason
    with pytest.raises(InvalidSettingError) as error:
        Config.from_settings(
            Settings(
                {
                    "DECLUTTER_METADATA_FIELDS": {"title": "title"},
                    "DECLUTTER_COMMENTS": "true",
                    "DECLUTTER_COMMENTS_FIELD": "title",
                }
            )
        )
    assert error.value.setting == "DECLUTTER_METADATA_FIELDS"  # the later output names it
    assert "DECLUTTER_COMMENTS_FIELD" in error.value.reason
    # an output not asked for may share a name: it is never written
    assert not Config.from_settings(Settings({"DECLUTTER_COMMENTS_FIELD": "text"})).options.comments
    # a metadata field named as another output's field, or as another metadata field's
    for metadata_fields, reason in (
        ({"url": "markdown"}, "expected a field other than DECLUTTER_MARKDOWN_FIELD's"),
        (
            {"date": "when", "url": "when"},
            "expected each metadata field in an item field of its own",
        ),
    ):
        with pytest.raises(InvalidSettingError) as error:
            Config.from_settings(
                Settings({"DECLUTTER_MARKDOWN": True, "DECLUTTER_METADATA_FIELDS": metadata_fields})
            )
        assert error.value.setting == "DECLUTTER_METADATA_FIELDS"
        assert error.value.reason == f"{reason}, got {metadata_fields.popitem()[1]!r}"


@pytest.mark.parametrize(
    ("settings", "named", "other"),
    [
        ({"DECLUTTER_TEXT_FIELD": "html"}, "DECLUTTER_TEXT_FIELD", "DECLUTTER_HTML_FIELD"),
        ({"DECLUTTER_HTML_FIELD": "text"}, "DECLUTTER_HTML_FIELD", "DECLUTTER_TEXT_FIELD"),
        (
            {"DECLUTTER_BLOCKS": "all", "DECLUTTER_HTML_FIELD": "blocks"},
            "DECLUTTER_HTML_FIELD",
            "DECLUTTER_BLOCKS_FIELD",
        ),
        (
            {"DECLUTTER_TEXT_FIELD": "body", "DECLUTTER_HTML_FIELD": "body"},
            "DECLUTTER_HTML_FIELD",
            "DECLUTTER_TEXT_FIELD",
        ),
    ],
)
def test_no_output_goes_into_the_field_the_pipeline_reads_html_from(settings, named, other):
    # the error names the setting the user set, not the one left at its default
    with pytest.raises(InvalidSettingError) as error:
        Config.from_settings(Settings(settings))
    assert error.value.setting == named
    assert error.value.reason.startswith(f"expected a field other than {other}'s")
    if "DECLUTTER_HTML_FIELD" not in settings:  # without the pipeline the name is free
        Config.from_settings(Settings({**settings, "DECLUTTER_HTML_FIELD": None}))


@pytest.mark.parametrize(
    "value",
    [
        {"title": "headline", "date": "published"},
        '{"title": "headline", "date": "published"}',  # -s NAME='{...}'
    ],
)
def test_metadata_fields_map_each_field_to_the_item_field_named(value):
    config = Config.from_settings(Settings({"DECLUTTER_METADATA_FIELDS": value}))
    assert config.metadata_fields == {"title": "headline", "date": "published"}
    assert config.output_fields() == [
        ("text_field", "text", "text"),
        ("metadata_fields", "metadata.title", "headline"),
        ("metadata_fields", "metadata.date", "published"),
    ]


@pytest.mark.parametrize("value", [["title", "date"], ("title", "date"), "title, date"])
def test_metadata_fields_listed_keep_their_names(value):
    config = Config.from_settings(Settings({"DECLUTTER_METADATA_FIELDS": value}))
    assert config.metadata_fields == {"title": "title", "date": "date"}


@pytest.mark.parametrize(
    "value",
    [{"titel": "title"}, ["title", "byline"], {"title": ""}, {"title": 1}, "{broken", 3],
)
def test_a_bad_metadata_field_names_the_setting_and_the_fields_there_are(value):
    with pytest.raises(InvalidSettingError) as error:
        Config.from_settings(Settings({"DECLUTTER_METADATA_FIELDS": value}))
    assert error.value.setting == "DECLUTTER_METADATA_FIELDS"
    assert error.value.reason.startswith(
        "expected a dict of metadata fields (title, author, date, date_raw, site_name,"
        " description, language, url, image) to item field names, got "
    )
    (override_error,) = Config().for_page({"metadata_fields": value})[1]
    assert override_error.reason == error.value.reason


def test_metadata_fields_are_chosen_per_page():
    config = Config.from_settings(Settings({"DECLUTTER_METADATA_FIELDS": ["title"]}))
    page, errors = config.for_page({"metadata_fields": {"author": "byline"}})
    assert (page.metadata_fields, errors) == ({"author": "byline"}, [])
    assert config.for_page({"metadata_fields": {}})[0].output_fields() == [
        ("text_field", "text", "text")
    ]
