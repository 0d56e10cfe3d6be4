"""The package's one error hierarchy: the core raises these, the Scrapy layer decides."""


class DeclutterError(Exception):
    """Base class of every error scrapy-declutter raises on purpose."""


class InvalidOptionError(DeclutterError, ValueError):
    """An option (or the Scrapy setting that maps to it) is unknown or has a bad value."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option
        self.reason = message  # what is wrong, without the name: callers name it their way


class InvalidInputError(DeclutterError, TypeError):
    """The page given to ``extract`` is neither ``str`` nor ``bytes``, or its URL is not ``str``."""


class ParseError(DeclutterError):
    """lxml could not build any tree from the page."""


class BinaryInputError(DeclutterError, ValueError):
    """The page is binary data (an image, a compressed stream, ...), not text."""


class PageLimitError(DeclutterError):
    """The page would cost more than a limit allows, and is not parsed (see
    ``scrapy_declutter.core.limits``). ``reason`` names the limit, for the
    Scrapy layer to count: ``"attributes"`` or ``"memory"``. ``option`` is the
    option that sets the limit (``page_memory_limit_mb``), named in the
    message; ``None`` for a fixed limit."""

    def __init__(self, reason: str, message: str, option: str | None = None) -> None:
        super().__init__(reason, message, option)  # all three: it is pickled from worker processes
        self.reason = reason
        self.message = message
        self.option = option

    def __str__(self) -> str:
        return self.message
