"""The built knowledge base on disk: its shape (`schema`); the one door to it
(`door`: open, build on first use or when its inputs change, check, repair);
reading it (`database`), and the named reads of everything above it (`passages`,
`sections`, `concepts`, `cards`, `card_names`, `scenarios`, `tables`,
`search_index`, `curated`, `limit_lists`)."""
