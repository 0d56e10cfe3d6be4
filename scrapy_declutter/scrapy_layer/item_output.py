"""Writing a result into an item, whatever its type, through ``itemadapter``."""

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
) -> bool:
    """Write ``data``'s text, and the other outputs asked for (blocks, Markdown,
    metadata fields, comments), into the item; count and return whether it was.

    An item that already has text is left alone unless ``DECLUTTER_OVERWRITE``.
    An item type that declares its fields (``scrapy.Item``, dataclass, attrs,
    ...) gets those of the outputs it declares, and counts as filled; each
    output it lacks is named in a warning (once per item type), with the
    setting that changes it. A type that declares none of them is left alone.
    """
    if adapter.get(config.text_field) and not config.overwrite:
        recorder.item_skipped("has_text")
        return False
    values: dict[str, Any] = {}
    for _, output, field in config.output_fields():
        source, _, name = output.partition(".")  # "metadata.title": one metadata field
        if source in data:
            value = data[source][name] if name else data[source]
            # each item gets its own blocks
            values[field] = [dict(block) for block in value] if source == "blocks" else value
    declared = ItemAdapter.get_field_names_from_class(type(adapter.item))  # None: any field
    for field in list(values):
        if declared is not None and field not in declared:
            del values[field]
            _warn_missing(recorder, type(adapter.item).__qualname__, field, config)
    if not values:
        recorder.item_skipped("missing_field")
        return False
    for field, value in values.items():
        adapter[field] = value
    recorder.item()
    return True


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
