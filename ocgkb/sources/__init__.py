"""Readers of the sources: the manifest and its documents, the card facts, the
curated files in kb/, and the parsers that turn each document into passages."""
