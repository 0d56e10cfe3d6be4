"""Writing a result into an item, whatever its type, through ``itemadapter``."""

from itemadapter import ItemAdapter

from scrapy_declutter.scrapy_layer.config import Config
from scrapy_declutter.scrapy_layer.stats import Recorder


def has_own_html(adapter: ItemAdapter, config: Config) -> bool:
    """Whether the item carries raw HTML of its own in ``DECLUTTER_HTML_FIELD``."""
    if config.html_field is None:
        return False
    html = adapter.get(config.html_field)
    return isinstance(html, (str, bytes)) and bool(html)


def fill_item(adapter: ItemAdapter, data: dict, config: Config, recorder: Recorder) -> bool:
    """Write ``data``'s text and blocks into the item; count and return whether it was.

    An item that already has text is left alone unless ``DECLUTTER_OVERWRITE``;
    an item type that declares no text field is left alone with a warning.
    """
    if adapter.get(config.text_field) and not config.overwrite:
        recorder.item_skipped("has_text")
        return False
    values = {config.text_field: data["text"]}
    if config.blocks != "none":
        values[config.blocks_field] = [dict(block) for block in data["blocks"]]
    try:
        for field, value in values.items():
            adapter[field] = value
    except KeyError as error:
        recorder.item_skipped("missing_field")
        item_type = type(adapter.item).__qualname__
        recorder.warn_once(
            item_type,
            "declutter: %s declares no field %s; its items are not filled",
            item_type,
            error,
        )
        return False
    recorder.item()
    return True
