"""The built knowledge base on disk: the one door to it (`door.py`: open, build on
first use or when its inputs change, check, repair) and reading it (`database.py`)."""
