"""The shape of the built database, said once: its version, every table and index,
the indexed fields by name, the link relations, the kinds of passage with their
labels, and how much a read returns at most.

The writer (build/), the readers (store/, query/, views/) and the front ends
(the command line's --help, the API's OpenAPI document) all take it from here.
It imports nothing of ocgkb, nor sqlite: `tests/test_architecture.py` holds it
at the lowest layer, so the sources (the fingerprint) and the build may read it.
"""

from __future__ import annotations

# A change to what is stored means every knowledge base is rebuilt (the version
# is part of the inputs' fingerprint). 22: added rulings documentations — a
# document's kind and origin, a passage's citations (date, FAQ id and address).
SCHEMA_VERSION = "23"

# Each kind of passage with what it is called, in Chinese and English: the
# terminal shows both, a page the Chinese. In the order a judge trusts them (of two
# passages with the same text, the build shows the stronger kind).
KIND_NAMES: dict[str, tuple[str, str]] = {
    "clause": ("条款", "clause"),
    "subitem": ("细项", "sub-item"),
    "example": ("例", "example"),
    "ruling": ("裁定", "ruling"),
    "note": ("注", "note"),
    "paragraph": ("段落", "paragraph"),
}
PASSAGE_KINDS: tuple[str, ...] = tuple(KIND_NAMES)
# The kinds that hang under a clause or ruling (their `parent`), and the link each makes.
BELOW_RELATION = {"example": "illustrates", "subitem": "part_of", "note": "annotates"}
# Which passages say best what a concept is, when no section defines it.
DEFINING_ORDER = ("clause", "ruling", "subitem", "paragraph")

# The fields of the full-text index, by name, in the index's column order (BM25
# weights and `fields` tuples follow it). `asked_each` is stored beside them,
# one line per question a passage answers, but not indexed.
FTS_FIELDS = ("words", "grams", "context", "asked")
FTS_COLUMN = {name: i for i, name in enumerate(FTS_FIELDS)}
PASSAGE_INDEX_COLUMNS = (*FTS_FIELDS, "asked_each")

# The relations of the `links` table: src → dst, each a typed node id (`passage:ID`,
# `section:NUMBER`, `concept:ID`, `scenario:NAME`).
PARENT_OF = "parent_of"  # section → its sub-section
IN_SECTION = "in_section"  # passage → its section or topic
REFERS_TO = "refers_to"  # passage → a section or concept its text sends the reader to
RELATED_CONCEPT = "related_concept"  # concept → a concept the ontology names as related
DEFINED_IN = "defined_in"  # concept → a section that defines it
REPLAYS = "replays"  # scenario → a passage it plays out
LINK_RELATIONS = (
    PARENT_OF,
    IN_SECTION,
    *BELOW_RELATION.values(),
    REFERS_TO,
    RELATED_CONCEPT,
    DEFINED_IN,
    REPLAYS,
)

# How long a question or any text argument may be, in characters: the query
# layer, the command line's options and the web's parameters all refuse more.
MAX_QUERY = 300
# A card's effect text `read` takes: longer than a question (a long card runs to
# ~600 characters), never a document.
MAX_CARD_TEXT = 1000

# How much a view returns at most, and by default: the command line's --limit,
# the API's `limit` and its OpenAPI document all read these.
MOST_HITS, DEFAULT_HITS = 40, 10  # what a search ranks
MOST_CLAUSES, DEFAULT_CLAUSES = 10, 5  # clauses an answer shows
MOST_CARD_PASSAGES, DEFAULT_CARD_PASSAGES = 200, 20  # passages a card lists (`card`, /api/card)
PAGE_CARD_PASSAGES = 60  # passages a card's web page lists unless ?limit= says
MOST_SET_CARDS = 100  # cards a set's page lists (`count` says how many there are)

# A card's columns, in the order of the table (the writer fills it with a plain
# executemany: 14k rows, without sqlite-utils' per-value type checks).
CARD_COLUMNS: dict[str, type] = {
    "name": str,
    "password": int,
    "konami_id": int,
    "name_zh": str,
    "name_zh_official": str,
    "name_en": str,
    "name_ja": str,
    "name_ja_reading": str,
    "card_type": str,
    "type_line": str,
    "property": str,
    "attribute": str,
    "level": int,
    "rank": int,
    "link_arrows": str,
    "pendulum_scale": int,
    "atk": str,
    "def": str,
    "alt_passwords": str,
    "mentions": int,
    "linked": str,
    "spellings": str,
    "search_name": str,
    "pinyin": str,
    "initials": str,
}
_SQL_TYPE = {str: "TEXT", int: "INTEGER"}

# Every table of the store with its columns, in the order the writer fills them.
# JSON lists are TEXT: a card's `spellings`, a concept's names (`zh`, `en`,
# `aliases`), `forms` and `keys` (its names in search form and as lookup keys).
TABLES: dict[str, str] = {
    "meta": "key TEXT PRIMARY KEY, value TEXT",
    # A seed (`kind` seed) or a documentation the user added (`added`: where from, when, its newest date).
    "documents": "name TEXT PRIMARY KEY, file TEXT, title TEXT, description TEXT, parser TEXT, sha256 TEXT,"
    " lines INTEGER, kind TEXT, origin TEXT, added TEXT, label TEXT, newest TEXT",
    # Rulebook sections and ruling topics; `ord` is the order of the texts.
    "sections": "number TEXT PRIMARY KEY, title TEXT, doc TEXT, parent TEXT, ord INTEGER, line INTEGER",
    "passages": "rowid INTEGER PRIMARY KEY, id TEXT, doc TEXT, file TEXT, kind TEXT, section TEXT, topic TEXT,"
    " line INTEGER, line_end INTEGER, text TEXT, search_text TEXT, parent TEXT, dup_of TEXT, flags TEXT,"
    f" source_note TEXT, citations TEXT, {', '.join(f'{c} TEXT' for c in PASSAGE_INDEX_COLUMNS)}",
    # The dates a passage gives, each with the card it dates where it names one.
    "dates": "passage_id TEXT, date TEXT, raw TEXT, card TEXT, position INTEGER",
    "cards": ", ".join(
        f"{c} {_SQL_TYPE[t]}{' PRIMARY KEY' if c == 'name' else ''}" for c, t in CARD_COLUMNS.items()
    ),
    # Every form a card's name may be typed in (`how`: zh, en, pinyin, nickname, …).
    "card_names": "id INTEGER PRIMARY KEY, form TEXT, card TEXT, how TEXT",
    # Which name forms hold each character (each letter triple for Latin forms):
    # a typo search reads only the forms that share enough of the query's.
    "card_grams": "gram TEXT, form_id INTEGER, PRIMARY KEY (gram, form_id)",
    "char_pinyin": "char TEXT PRIMARY KEY, pinyin TEXT",
    # The card names a question is scanned for whole (ocgkb.query.named_cards).
    "question_names": "form TEXT, card TEXT, mentions INTEGER, script TEXT, single INTEGER",
    # How often general Chinese uses each word of the texts.
    "general_use": "term TEXT PRIMARY KEY, freq INTEGER",
    # The Forbidden & Limited lists, and each card's status on each.
    "limit_lists": "region TEXT, effective TEXT, cards INTEGER, partial INTEGER, PRIMARY KEY (region, effective)",
    "card_limits": "card TEXT, region TEXT, effective TEXT, status TEXT, password INTEGER,"
    " PRIMARY KEY (card, region, effective)",
    "passage_cards": "passage_id TEXT, card TEXT, how TEXT",
    "archetypes": "name TEXT PRIMARY KEY, mentions INTEGER",
    "passage_archetypes": "passage_id TEXT, archetype TEXT",
    # A concept's defining sections and related concepts are its `links` rows.
    "concepts": "id TEXT PRIMARY KEY, name_zh TEXT, name_en TEXT, zh TEXT, en TEXT, aliases TEXT, forms TEXT,"
    " keys TEXT, not_in TEXT",
    "passage_concepts": "passage_id TEXT, concept TEXT, how TEXT",
    "scenarios": "name TEXT PRIMARY KEY, file TEXT, title TEXT, replays TEXT",
    "links": "src TEXT, dst TEXT, relation TEXT",
    # What the last update of each added documentation changed (ocgkb.sources.changes), as JSON.
    "source_changes": "source TEXT PRIMARY KEY, changes TEXT",
    # Each word of the index with how many passages hold it.
    "vocabulary": "term TEXT PRIMARY KEY, df INTEGER",
    # The same for each term of the full-text indexes, by family: a plain, indexed
    # copy of the `<family>_terms` tables, which compute it on every read.
    "term_counts": "term TEXT PRIMARY KEY, seed INTEGER, added INTEGER",
}
# Looked up by key only, in key order: no rowid needed.
WITHOUT_ROWID = frozenset({"card_grams", "general_use", "term_counts"})

# The columns each table is looked up by, indexed once its rows are in. A
# clause's examples and a section's passages are read on every answer and page.
INDEXED: dict[str, tuple[str, ...]] = {
    "passages": ("id", "parent", "section", "dup_of"),
    "dates": ("passage_id", "date"),
    "cards": ("password",),
    "card_names": ("form", "card"),
    "question_names": ("form",),
    "passage_cards": ("card", "passage_id"),
    "passage_concepts": ("concept", "passage_id"),
    "links": ("src", "dst"),
}
UNIQUE = frozenset({("passages", "id")})

# Each family of documents (documents.kind) has its own full-text index and
# term counts, and ranks its passages by its own statistics: adding a
# documentation never reorders the seeds' passages among themselves.
FAMILIES = ("seed", "added")


def fts_table(family: str) -> str:
    """The full-text index of one of FAMILIES."""
    return f"{family}_fts"


def create_fts(family: str) -> str:
    """One family's full-text index. It reads its fields from the passages table
    (external content), so ranking reads them from a plain table and the text is
    stored once; its rows are the family's passages, inserted by rowid."""
    return (
        f"CREATE VIRTUAL TABLE {fts_table(family)} USING fts5({', '.join(FTS_FIELDS)}, content='passages',"
        " content_rowid='rowid', tokenize='unicode61 remove_diacritics 0')"
    )


def create_term_view(family: str) -> str:
    """How many of a family's passages hold each indexed term, computed by SQLite on every read."""
    return f"CREATE VIRTUAL TABLE {family}_terms USING fts5vocab({fts_table(family)}, 'row')"


def create_table(name: str) -> str:
    """The CREATE TABLE statement of one of TABLES."""
    return f"CREATE TABLE {name} ({TABLES[name]}){' WITHOUT ROWID' if name in WITHOUT_ROWID else ''}"


def create_indexes(table: str) -> list[str]:
    """The CREATE INDEX statements of a table's INDEXED columns."""
    return [
        f"CREATE {'UNIQUE ' if (table, column) in UNIQUE else ''}INDEX idx_{table}_{column} ON {table} ({column})"
        for column in INDEXED.get(table, ())
    ]
