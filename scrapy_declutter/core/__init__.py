"""The extraction core: HTML to a document of blocks, its options, and the outputs read off it."""
