"""The extraction core: HTML to a document of blocks, its options, and what every layer needs."""
