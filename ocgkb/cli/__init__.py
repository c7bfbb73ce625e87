"""The command line: `ocgkb` (main.py) and its terminal rendering (render.py)."""
