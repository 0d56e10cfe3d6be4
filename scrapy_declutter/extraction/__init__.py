"""The assembly: the named pipelines of stages, ``extract()``, its result and report."""
