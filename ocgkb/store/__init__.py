"""The built knowledge base on disk: opening it read-only, building it on first
use or when its sources change, checking it."""
