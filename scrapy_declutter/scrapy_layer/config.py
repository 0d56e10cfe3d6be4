"""Scrapy settings to core ``Options`` plus the layer's own configuration.

Every ``Options`` field ``name`` is the setting ``DECLUTTER_<NAME>``; the list
is derived from ``dataclasses.fields(Options)``, so a new option is a new
setting with no change here. The layer adds the settings in ``LAYER_DEFAULTS``.
Values given as strings (``scrapy crawl -s DECLUTTER_LENGTH_LOW=50``) are
converted by the field's type. Any bad value, or an unknown ``DECLUTTER_*``
name, raises ``InvalidOptionError`` naming the setting.
"""

import dataclasses
import difflib
import types
import typing
from typing import Any
from weakref import WeakKeyDictionary

from scrapy_declutter.core.errors import InvalidOptionError
from scrapy_declutter.core.options import Options

PREFIX = "DECLUTTER_"
BLOCKS_CHOICES = ("all", "kept", "none")
# The layer's settings (name without the prefix -> default).
LAYER_DEFAULTS: dict[str, Any] = {
    "ENABLED": True,
    "TEXT_FIELD": "text",
    "BLOCKS_FIELD": "blocks",
    "BLOCKS": "all",
    "HTML_FIELD": "html",
    "OVERWRITE": False,
    "MAX_BODY_SIZE": 10 * 1024 * 1024,
    "WORKERS": 0,
}
# The key of ``request.meta`` / ``response.meta`` the result is written to;
# ``meta["declutter"]`` is the per-request input (False or an options dict).
META_RESULT = "declutter_result"
META_OVERRIDE = "declutter"

_configs: "WeakKeyDictionary[Any, Config]" = WeakKeyDictionary()


def setting_name(field_name: str) -> str:
    return PREFIX + field_name.upper()


def option_settings() -> dict[str, dataclasses.Field]:
    """``DECLUTTER_<FIELD>`` -> the ``Options`` field, for every field."""
    return {setting_name(f.name): f for f in dataclasses.fields(Options)}


def all_settings() -> dict[str, Any]:
    """Every setting this package reads, with its default."""
    defaults = {name: _default(f) for name, f in option_settings().items()}
    defaults.update({PREFIX + name: value for name, value in LAYER_DEFAULTS.items()})
    return defaults


@dataclasses.dataclass(frozen=True)
class Config:
    """Everything the components read from settings, checked once.

    ``blocks`` is ``"all"``, ``"kept"`` or ``"none"``: which blocks go into
    items and meta. ``workers`` is 0 for a background thread, N for N processes.
    """

    options: Options
    enabled: bool = True
    text_field: str = "text"
    blocks_field: str = "blocks"
    blocks: str = "all"
    html_field: str | None = "html"
    overwrite: bool = False
    max_body_size: int = 10 * 1024 * 1024
    workers: int = 0

    @classmethod
    def from_settings(cls, settings) -> "Config":
        """Read and validate every ``DECLUTTER_*`` setting of ``settings``."""
        _check_names(settings)
        layer = {name: _layer_value(settings, name) for name in LAYER_DEFAULTS}
        if not layer["ENABLED"]:
            return cls(Options(), enabled=False)
        values = {}
        hints = typing.get_type_hints(Options)
        for name, f in option_settings().items():
            if name in settings:
                values[f.name] = _coerce(name, settings[name], hints[f.name])
        try:
            options = Options(**values)
        except InvalidOptionError as error:
            message = str(error).split(": ", 1)[-1]
            raise InvalidOptionError(setting_name(error.option), message) from None
        return cls(options, **{name.lower(): value for name, value in layer.items()})

    @classmethod
    def for_crawler(cls, crawler) -> "Config":
        """The crawler's config, read and validated on first use only."""
        config = _configs.get(crawler)
        if config is None:
            config = _configs[crawler] = cls.from_settings(crawler.settings)
        return config

    def with_overrides(self, overrides: dict) -> Options:
        """The options with a ``request.meta["declutter"]`` dict applied."""
        if not isinstance(overrides, dict):
            raise InvalidOptionError(
                META_OVERRIDE, f"meta value must be False or a dict, got {overrides!r}"
            )
        return Options.from_kwargs(**{**dataclasses.asdict(self.options), **overrides})


def _default(f: dataclasses.Field) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return None


def _check_names(settings) -> None:
    known = all_settings()
    for name in settings.attributes if hasattr(settings, "attributes") else settings:
        if name.startswith(PREFIX) and name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
            raise InvalidOptionError(name, f"unknown setting{hint}")


def _layer_value(settings, name: str) -> Any:
    setting = PREFIX + name
    default = LAYER_DEFAULTS[name]
    value = settings[setting] if setting in settings else default
    if name == "HTML_FIELD" and value in (None, ""):
        return None
    if name == "BLOCKS":
        if value not in BLOCKS_CHOICES:
            raise InvalidOptionError(
                setting, f"expected one of {', '.join(BLOCKS_CHOICES)}, got {value!r}"
            )
        return value
    value = _coerce(setting, value, type(default))
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise InvalidOptionError(setting, f"expected True or False, got {value!r}")
    elif isinstance(default, int):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InvalidOptionError(setting, f"expected a whole number >= 0, got {value!r}")
    elif not isinstance(value, str) or not value:
        raise InvalidOptionError(setting, f"expected a non-empty field name, got {value!r}")
    return value


def _coerce(setting: str, value: Any, hint: Any) -> Any:
    """Convert a string from the command line to the field's type."""
    if not isinstance(value, str):
        return value
    args = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    if type(None) in args and value.strip().lower() in ("", "none", "null"):
        return None
    try:
        if bool in args:
            lowered = value.strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise ValueError(value)
        if int in args:
            return int(value)
        if float in args:
            return float(value)
    except ValueError:
        expected = " or ".join(t.__name__ for t in args if t is not type(None))
        raise InvalidOptionError(setting, f"expected {expected}, got {value!r}") from None
    return value
