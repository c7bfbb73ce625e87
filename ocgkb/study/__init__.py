"""The knowledge base as a networkx graph, and its export for study."""
