"""The algorithms, each a stage that reads and writes labels on the block model, and the
evidence they share."""
