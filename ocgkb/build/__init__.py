"""The build: sources in, one SQLite knowledge base out (parse → link → tag →
index → write, see pipeline.py)."""
