"""The layer's settings: one validated frozen dataclass, read once per crawler.

Every field of ``Config`` (but ``options``) is the setting ``DECLUTTER_<FIELD>``,
and every field of the core's ``Options`` is one too: ``length_low`` is
``DECLUTTER_LENGTH_LOW``. Each default is the field's. A value is converted one
way wherever it comes from (settings, ``-s`` strings, ``meta["declutter"]``):
strings to the field's type (``"50"``, ``"0.5"``, ``"true"``, ``"None"``), then
checked when the dataclass is made; a choice's case never matters (``ALL``,
``JUSTEXT``), a name's always does (with a hint). A bad value, or an unknown ``DECLUTTER_*``
name (in any case: ``DECLUTTER_blocks`` is not ``DECLUTTER_BLOCKS`` to Scrapy),
raises ``InvalidSettingError``, which carries the setting's name.

The per-page fields (``per_page`` in their metadata) and every option can be
overridden for one request in ``meta["declutter"]`` (see ``Config.for_page``).
"""

import dataclasses
import json
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

from scrapy_declutter.core.errors import InvalidOptionError
from scrapy_declutter.core.options import Options, closest_name
from scrapy_declutter.extraction.presets import check_pipeline_name, check_rule_names
from scrapy_declutter.outputs.metadata import METADATA_FIELDS

PREFIX = "DECLUTTER_"
BLOCKS_CHOICES = ("all", "kept", "none")
# ``meta["declutter"]`` is the per-request input (False, or a dict of overrides);
# ``meta["declutter_result"]`` receives the result with ``DECLUTTER_EAGER``.
META_OVERRIDE = "declutter"
META_RESULT = "declutter_result"
_BOOL_WORDS = {"1": True, "true": True, "yes": True, "on": True}
_BOOL_WORDS |= {"0": False, "false": False, "no": False, "off": False}


class InvalidSettingError(InvalidOptionError):
    """A ``DECLUTTER_*`` setting, or a key of ``meta["declutter"]``, is unknown or bad.

    ``setting`` is the setting's name (``DECLUTTER_LENGTH_LOW``), ``key`` the
    field's (``length_low``, as written in ``meta["declutter"]``), ``reason``
    what is wrong. The message is ``"<setting>: <reason>"``.
    """

    def __init__(self, key: str, reason: str, setting: str | None = None) -> None:
        self.setting = setting or setting_name(key)  # as written, when it is not upper case
        self.key = key
        super().__init__(self.setting, reason)


def setting_name(key: str) -> str:
    return PREFIX + key.upper()


def _setting(
    default: Any, valid: Callable[[Any], bool], expected: str, per_page: bool = False
) -> Any:
    """A field of ``Config``: its default, its check, and whether a request may override it.
    A ``dict`` default is copied for each ``Config``."""
    metadata = {"valid": valid, "expected": expected, "per_page": per_page}
    if isinstance(default, dict):
        return dataclasses.field(default_factory=default.copy, metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_positive_count(value: Any) -> bool:
    return _is_count(value) and value >= 1


def _is_seconds(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0


def _is_name(value: Any) -> bool:
    return isinstance(value, str) and bool(value)


def _is_name_or_none(value: Any) -> bool:
    return value is None or _is_name(value)


def _is_metadata_fields(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and all(name in METADATA_FIELDS for name in value)
        and all(map(_is_name, value.values()))
    )


@dataclasses.dataclass(frozen=True)
class Config:
    """What the components read from the settings, checked when made.

    The ``#:`` comment above each field says what it does (the docs' settings
    reference is made from them). The ``*_field`` settings name the item fields
    the outputs go to; no two outputs share one, nor ``html_field``.
    ``options``: the extraction options (the ``Options`` fields' settings).
    """

    #: ``False`` switches every component off
    enabled: bool = _setting(True, _is_bool, "True or False")
    #: which blocks go into items and ``meta``: ``none`` (no field), ``kept`` (the
    #: kept blocks) or ``all`` (every block, labelled)
    blocks: str = _setting("none", BLOCKS_CHOICES.__contains__, "one of all, kept, none", True)
    #: the item field for the clean text
    text_field: str = _setting("text", _is_name, "a non-empty field name", True)
    #: the item field for the blocks
    blocks_field: str = _setting("blocks", _is_name, "a non-empty field name", True)
    #: the kept text as Markdown into items
    markdown: bool = _setting(False, _is_bool, "True or False", True)
    #: the item field for the Markdown
    markdown_field: str = _setting("markdown", _is_name, "a non-empty field name", True)
    #: which of the page's metadata fields (``METADATA_FIELDS``: title, author, date,
    #: date_raw, site_name, description, language, url, image) go into items, each to the item
    #: field it maps to (``{"title": "title", "date": "published"}``); a list
    #: (``["title", "date"]``, or ``title,date`` with ``-s``) keeps the names
    metadata_fields: Mapping[str, str] = _setting(
        {},
        _is_metadata_fields,
        f"a dict of metadata fields ({', '.join(METADATA_FIELDS)}) to item field names",
        True,
    )
    #: the item field for the comments (``DECLUTTER_COMMENTS``)
    comments_field: str = _setting("comments", _is_name, "a non-empty field name", True)
    #: the item field holding raw HTML that the item pipeline declutters;
    #: ``None`` switches the pipeline off
    html_field: str | None = _setting("html", _is_name_or_none, "a field name, or None")
    #: overwrite the text of an item that already has some
    overwrite: bool = _setting(False, _is_bool, "True or False", True)
    #: bytes: larger responses, and items' HTML (counted in UTF-8), are skipped;
    #: ``0``: no limit
    max_body_size: int = _setting(10 * 1024 * 1024, _is_count, "a whole number >= 0", True)
    #: ``False``: a response is decluttered only when its callback yields an item
    #: to fill from it, or awaits ``declutter_result(response)``; ``True``: every
    #: HTML response is, before its callback runs, and its result written into
    #: ``response.meta["declutter_result"]`` (earlier releases' behaviour)
    eager: bool = _setting(False, _is_bool, "True or False")
    #: ``0``: the extraction runs in background threads (``DECLUTTER_THREADS``);
    #: ``N``: in a pool of N worker processes
    workers: int = _setting(0, _is_count, "a whole number >= 0")
    #: with ``DECLUTTER_WORKERS = 0``, how many threads extract pages: a slow page
    #: holds one of them, the other pages go on in the others
    threads: int = _setting(4, _is_positive_count, "a whole number >= 1")
    #: bytes: with ``DECLUTTER_WORKERS = 0``, pages this large or larger take at
    #: most all the threads but one, kept for the smaller pages behind them; ``0``:
    #: any page takes any thread
    large_page_size: int = _setting(512 * 1024, _is_count, "a whole number >= 0")
    #: seconds: a page whose extraction takes longer is given up (its item kept,
    #: without text); ``0``: no limit. A worker process is replaced; a thread's
    #: extraction stops itself, at most one of its steps late (``core/deadline.py``)
    timeout: float = _setting(60.0, _is_seconds, "a number of seconds >= 0", True)
    options: Options = dataclasses.field(default_factory=Options)

    def __post_init__(self) -> None:
        if isinstance(self.blocks, str):  # a choice's case never matters, as the options'
            object.__setattr__(self, "blocks", self.blocks.lower())
        for f in _layer_fields():
            value = getattr(self, f.name)
            if not f.metadata["valid"](value):
                raise InvalidSettingError(
                    f.name, f"expected {f.metadata['expected']}, got {value!r}"
                )
        taken: dict[str, str] = {}  # item field: the setting that named it
        for key, _, field in self.output_fields():
            if field in taken:
                self._clash(taken[field], key, field)
            taken[field] = key
        if self.html_field in taken:  # the pipeline would read an output as the page
            self._clash(taken[self.html_field], "html_field", self.html_field)

    def _clash(self, first: str, second: str, field: str) -> None:
        """Raise for two settings naming one item ``field``, on the one the user
        set: the one not at its default (the second when both are set)."""
        if first == second:
            reason = "expected each metadata field in an item field of its own"
            raise InvalidSettingError(first, f"{reason}, got {field!r}")
        if getattr(self, second) == _LAYER_DEFAULTS[second]:
            first, second = second, first
        reason = f"expected a field other than {setting_name(first)}'s"
        raise InvalidSettingError(second, f"{reason}, got {field!r}")

    def output_fields(self) -> list[tuple[str, str, str]]:
        """The item fields written, as (the setting that names the field, the
        output, the field): the text's, then those of the other outputs asked
        for. An output is a key of the extraction's data (``"markdown"``), or
        ``"metadata.<name>"`` for one metadata field."""
        asked = (
            ("text_field", "text", True),
            ("blocks_field", "blocks", self.blocks != "none"),
            ("markdown_field", "markdown", self.markdown),
            ("comments_field", "comments", self.options.comments),
        )
        fields = [(key, output, getattr(self, key)) for key, output, on in asked if on]
        fields += [
            ("metadata_fields", f"metadata.{name}", field)
            for name, field in self.metadata_fields.items()
        ]
        return fields

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> "Config":
        """Read and check every ``DECLUTTER_*`` setting of (Scrapy) ``settings``."""
        given = {}
        for name in list(settings):  # Scrapy's Settings iterate names
            if not name.upper().startswith(PREFIX):
                continue
            key = name[len(PREFIX) :].lower()
            # Scrapy's names are case-sensitive: DECLUTTER_blocks is not DECLUTTER_BLOCKS
            if key not in _KEYS or name != setting_name(key):
                close = closest_name(name, all_settings())
                hint = f"; did you mean {close}?" if close else ""
                raise InvalidSettingError(key, f"unknown setting{hint}", name)
            given[key] = settings[name]
        return cls().replace(given)

    def replace(self, values: Mapping[str, Any]) -> "Config":
        """This config with ``values`` (fields of ``Config`` or ``Options``) converted and set."""
        layer, options = {}, {}
        for key, value in values.items():
            if key in _OPTION_TYPES:
                options[key] = _convert(value, _OPTION_TYPES[key])
            else:
                layer[key] = _convert(value, _LAYER_TYPES[key])
        try:
            new_options = dataclasses.replace(self.options, **options)
            check_pipeline_name(new_options.pipeline)
            check_rule_names(new_options.rules_off)
        except InvalidOptionError as error:
            raise InvalidSettingError(error.option, error.reason) from None
        return dataclasses.replace(self, options=new_options, **layer)

    def over_size_limit(self, size: int) -> str | None:
        """Why a page of ``size`` bytes is skipped as too large (its size
        against ``DECLUTTER_MAX_BODY_SIZE``), or ``None`` when it is not."""
        limit = self.max_body_size
        if limit == 0 or size <= limit:
            return None
        return f"{size:,} bytes, over {setting_name('max_body_size')} ({limit:,})"

    def for_page(self, overrides: Mapping[Any, Any]) -> tuple["Config", list[InvalidSettingError]]:
        """This config with a request's ``meta["declutter"]`` dict applied.

        Keys are per-page field names (``blocks``, ``markdown``,
        ``metadata_fields``, the ``*_field`` names, ``overwrite``,
        ``max_body_size``, ``timeout``) and every option
        (``language``, ``length_low``, ...), checked together as settings are,
        with the same messages. A key that is unknown, not per page, or bad is
        left out and returned among the errors; the other keys still apply.
        When a bad combination names a field not given (``length_high`` below
        the settings' ``length_low``), the last key given is left out.
        """
        errors, values = [], {}
        for key, value in overrides.items():
            if isinstance(key, str) and key in PER_PAGE_KEYS:
                values[key] = value
            else:
                errors.append(InvalidSettingError(str(key), _not_per_page(key)))
        while True:
            try:
                return self.replace(values), errors
            except InvalidSettingError as error:
                key = error.key if error.key in values else list(values)[-1]
                del values[key]
                reason = error.reason if error.key == key else f"{error.key}: {error.reason}"
                errors.append(InvalidSettingError(key, reason))


def _layer_fields() -> tuple[dataclasses.Field, ...]:
    return tuple(f for f in dataclasses.fields(Config) if f.name != "options")


_LAYER_TYPES = {f.name: f.type for f in _layer_fields()}
_LAYER_DEFAULTS = {
    f.name: f.default if f.default_factory is dataclasses.MISSING else f.default_factory()
    for f in _layer_fields()
}
_OPTION_TYPES = typing.get_type_hints(Options)
_KEYS = {*_LAYER_TYPES, *_OPTION_TYPES}
PER_PAGE_KEYS = frozenset(
    {f.name for f in _layer_fields() if f.metadata["per_page"]} | set(_OPTION_TYPES)
)


def all_settings() -> dict[str, Any]:
    """Every setting this package reads, with its default."""
    defaults = Config()
    layer = {setting_name(f.name): getattr(defaults, f.name) for f in _layer_fields()}
    options = {
        setting_name(f.name): getattr(defaults.options, f.name) for f in dataclasses.fields(Options)
    }
    return {**layer, **options}


def read_enabled(settings: Mapping[str, Any]) -> bool:
    """``DECLUTTER_ENABLED``, checked like every setting (for the add-on, which
    runs before the components read the rest)."""
    name = setting_name("enabled")
    return Config().replace({"enabled": settings[name]}).enabled if name in settings else True


def _not_per_page(key: object) -> str:
    if isinstance(key, str) and key in _KEYS:
        return "not a per-page setting (set it in the settings)"
    close = closest_name(key, PER_PAGE_KEYS) if isinstance(key, str) else None
    return "unknown key" + (f"; did you mean {close!r}?" if close else "")


def _convert(value: Any, hint: Any) -> Any:
    """A string (from ``-s NAME=VALUE``) as the field's type; anything else as is.

    For a dict field (``metadata_fields``), a string is a JSON object or
    comma-separated names, and a list or tuple of names maps each to itself.
    A value that does not convert is returned unchanged, for the dataclass's
    check to reject with its message.
    """
    if typing.get_origin(hint) is Mapping:
        return _as_dict(value)
    if not isinstance(value, str):
        return value
    args = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    word = value.strip().lower()
    if type(None) in args and word in ("", "none", "null"):
        return None
    if bool in args:
        return _BOOL_WORDS.get(word, value)
    for number in (int, float):
        if number in args:
            try:
                return number(value)
            except ValueError:
                return value
    return value


def _as_dict(value: Any) -> Any:
    if isinstance(value, str):
        if value.lstrip().startswith("{"):
            try:
                return json.loads(value)
            except ValueError:
                return value
        value = [name.strip() for name in value.split(",") if name.strip()]
    if isinstance(value, (list, tuple)) and all(isinstance(name, str) for name in value):
        return {name: name for name in value}
    if isinstance(value, Mapping):  # Scrapy may hand a dict setting over as BaseSettings
        return dict(value)
    return value
