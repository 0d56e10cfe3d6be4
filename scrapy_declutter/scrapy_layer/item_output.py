"""Writing a result into an item, whatever its type, through ``itemadapter``.

An item that cannot be written in place (a frozen dataclass or attrs class, a
frozen pydantic model) is filled in a copy of itself made the way its type
makes copies; one whose type allows neither goes on unchanged. Either way it
is counted and its type named once in the log: no item is lost.
"""

import dataclasses
import logging
from typing import Any

from itemadapter import ItemAdapter

from scrapy_declutter.scrapy_layer.config import Config, setting_name
from scrapy_declutter.scrapy_layer.stats import Recorder


def has_own_html(adapter: ItemAdapter, config: Config) -> bool:
    """Whether the item carries raw HTML of its own in ``DECLUTTER_HTML_FIELD``."""
    if config.html_field is None:
        return False
    html = adapter.get(config.html_field)
    return isinstance(html, (str, bytes)) and bool(html)


def fill_item(
    adapter: ItemAdapter, data: dict[str, Any], config: Config, recorder: Recorder
) -> Any:
    """Write ``data``'s text, and the other outputs asked for (blocks, Markdown,
    metadata fields, comments), into the item; count it, and return the item
    to pass on: the item itself, or a filled copy where it cannot be written.

    An item that already has text is left alone unless ``DECLUTTER_OVERWRITE``.
    An item type that declares its fields (``scrapy.Item``, dataclass, attrs,
    ...) gets those of the outputs it declares, and counts as filled; each
    output it lacks is named in a warning (once per item type), with the
    setting that changes it. A type that declares none of them is left alone.
    Nothing it meets raises: an error is counted and logged, and the item goes
    on, so that neither it nor the rest of the callback's output is lost.
    """
    try:
        return _fill(adapter, data, config, recorder)
    except Exception as error:
        recorder.error(error, f"item {type(adapter.item).__qualname__}")
        return adapter.item


def _fill(adapter: ItemAdapter, data: dict[str, Any], config: Config, recorder: Recorder) -> Any:
    item = adapter.item
    if adapter.get(config.text_field) and not config.overwrite:
        recorder.item_skipped("has_text")
        return item
    values: dict[str, Any] = {}
    for _, output, field in config.output_fields():
        source, _, name = output.partition(".")  # "metadata.title": one metadata field
        if source in data:
            value = data[source][name] if name else data[source]
            # each item gets its own blocks
            values[field] = [dict(block) for block in value] if source == "blocks" else value
    declared = ItemAdapter.get_field_names_from_class(type(item))  # None: any field
    for field in list(values):
        if declared is not None and field not in declared:
            del values[field]
            _warn_missing(recorder, type(item).__qualname__, field, config)
    if not values:
        recorder.item_skipped("missing_field")
        return item
    try:
        for field, value in values.items():
            adapter[field] = value
    except Exception as error:  # a frozen type, or one whose setter refuses the value
        return _fill_copy(item, values, error, recorder)
    recorder.item()
    return item


def _fill_copy(item: Any, values: dict[str, Any], refused: Exception, recorder: Recorder) -> Any:
    """``item`` refused a write: return a copy with ``values``, made as its type
    makes copies, or ``item`` unchanged where its type makes none."""
    item_type = type(item).__qualname__
    try:
        filled = _copy_with(item, values)
    except Exception as error:  # e.g. a field the type's constructor does not take
        refused = error
        filled = None
    if filled is None:
        recorder.item_skipped("read_only")
        recorder.warn_once(
            f"read_only:{item_type}",
            "declutter: %s items cannot be written (%s: %s) nor copied with new values, "
            "so they go on without text; make the type mutable to have them filled",
            item_type,
            type(refused).__name__,
            refused,
        )
        return item
    recorder.item(copied=True)
    recorder.warn_once(
        f"copied:{item_type}",
        "declutter: %s items cannot be written in place (%s), so each is filled in a copy "
        "of itself: a pipeline gets the copy, the callback's object stays as it was",
        item_type,
        type(refused).__name__,
        level=logging.INFO,
    )
    return filled


def _copy_with(item: Any, values: dict[str, Any]) -> Any:
    """A copy of ``item`` with ``values`` in its fields, as its type makes one;
    ``None`` for a type that has no way to."""
    if dataclasses.is_dataclass(item) and not isinstance(item, type):
        return dataclasses.replace(item, **values)
    if hasattr(type(item), "__attrs_attrs__"):
        import attrs  # installed wherever an attrs item exists

        return attrs.evolve(item, **values)
    if callable(getattr(item, "model_copy", None)):  # pydantic 2
        return item.model_copy(update=values)
    if hasattr(type(item), "__fields__") and callable(getattr(item, "copy", None)):  # pydantic 1
        return item.copy(update=values)
    return None


def _warn_missing(recorder: Recorder, item_type: str, field: str, config: Config) -> None:
    key, output = next((k, o) for k, o, f in config.output_fields() if f == field)
    if output == "text":
        fix = f"declare it, or set {setting_name(key)} to a field it declares"
    elif key == "metadata_fields":
        name = output.partition(".")[2]
        output = f"metadata {name}"
        fix = f"declare it, or leave {name!r} out of {setting_name(key)}"
    else:
        off = '"none"' if output == "blocks" else "False"  # the setting is named as the output
        fix = f"declare it, or set {setting_name(output)} = {off} to write no {output}"
    recorder.warn_once(
        f"missing:{item_type}:{field}",
        "declutter: %s declares no field %r, so its items get no %s; %s",
        item_type,
        field,
        output,
        fix,
    )
