"""The extraction core: HTML to a document of blocks, options, presets and ``extract()``."""
