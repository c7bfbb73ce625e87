"""The built knowledge base on disk: its shape (`schema`), opening it read-only,
building it on first use or when its sources change, checking it, and the named
reads of everything above it (`sections`, `concepts`, `passages`, `cards`,
`scenarios`, `tables`)."""
