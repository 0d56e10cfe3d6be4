"""The assembly: the named pipelines of stages, ``extract()`` and its result, ``explain()``."""
