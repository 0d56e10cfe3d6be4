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
    """Write ``data``'s text and blocks into the item; count and return whether it was.

    An item that already has text is left alone unless ``DECLUTTER_OVERWRITE``.
    An item type that declares its fields (``scrapy.Item``, dataclass, attrs,
    ...) gets those of the outputs it declares, and counts as filled; each
    output it lacks is named in a warning (once per item type), with the
    setting that changes it. A type that declares none of them is left alone.
    """
    if adapter.get(config.text_field) and not config.overwrite:
        recorder.item_skipped("has_text")
        return False
    values: dict[str, Any] = {config.text_field: data["text"]}
    if config.blocks != "none":
        values[config.blocks_field] = [dict(block) for block in data["blocks"]]
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
    if field == config.text_field:
        fix = f"declare it, or set {setting_name('text_field')} to a field it declares"
    else:
        fix = f'declare it, or set {setting_name("blocks")} = "none" to write no blocks'
    recorder.warn_once(
        f"missing:{item_type}:{field}",
        "declutter: %s declares no field %r, so its items get no %s; %s",
        item_type,
        field,
        "text" if field == config.text_field else "blocks",
        fix,
    )
