"""`ocgkb mcp`: the knowledge base as a Model Context Protocol server over stdio,
so an AI assistant looks a ruling up, with its citation, before it answers.
One tool per view (`tools.py`), their arguments declared once (`arguments.py`),
a short quotable text with each answer (`quotes.py`), the SDK's wiring (`server.py`)."""

INSTALL_HINT = "the MCP server needs the mcp extra: pip install 'ocgkb[mcp]'"
