"""One function per command or page, returning the data its --json prints; the
terminal, the JSON output and the web pages all render that same data."""
