"""Per-process caches stay bounded however many different questions arrive: a
server answers strangers for weeks, and every question's pieces are new."""

import sqlite3

from ocgkb.store.database import Vocabulary


def _vocabulary() -> Vocabulary:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE vocabulary (term TEXT PRIMARY KEY, df INTEGER)")
    conn.executemany("INSERT INTO vocabulary VALUES (?, ?)", [("连锁", 40), ("对象", 30), ("cost", 12)])
    return Vocabulary(lambda: conn)


def test_pieces_that_are_not_words_are_remembered_only_for_the_latest_lookups(monkeypatch):
    monkeypatch.setattr(Vocabulary, "MISSES_KEPT", 100)
    vocabulary = _vocabulary()
    vocabulary.prefetch(f"问题{i}" for i in range(5_000))
    for i in range(5_000):
        assert f"片段{i}" not in vocabulary
    assert vocabulary.memory_size() <= 100
    assert vocabulary["连锁"] == 40 and "对象" in vocabulary and vocabulary.get("cost") == 12
    assert vocabulary.memory_size() <= 103  # the words found, bounded by the vocabulary itself


def test_a_forgotten_piece_is_looked_up_again_and_still_missing(monkeypatch):
    monkeypatch.setattr(Vocabulary, "MISSES_KEPT", 2)
    vocabulary = _vocabulary()
    for term in ["甲乙", "丙丁", "戊己", "甲乙"]:
        assert term not in vocabulary
    assert "连锁" in vocabulary and vocabulary.memory_size() == 3


def test_many_unique_long_questions_leave_the_vocabulary_bounded(kb):
    from ocgkb.query.ranking import search

    before = kb.vocabulary.memory_size()
    for i in range(40):
        search(kb, f"第{i}个问题：" + "".join(chr(0x4E00 + (i * 37 + k * 11) % 20000) for k in range(290)))
    found_at_most = kb.query("SELECT count(*) FROM vocabulary")[0][0]
    assert kb.vocabulary.memory_size() - before <= Vocabulary.MISSES_KEPT + found_at_most


class _RecordingConnection:
    """A connection that notes the SQL text of every statement it runs."""

    def __init__(self, conn) -> None:
        self._conn, self.texts = conn, set()

    def execute(self, sql, params=()):
        self.texts.add(sql)
        return self._conn.execute(sql, params)

    def __getattr__(self, name):
        return getattr(self._conn, name)


def test_no_statement_grows_with_the_question(kb_path):
    """The connection caches 128 prepared statements by their text: a list spelled
    as one ? per value makes a new, large statement for every length of list."""
    from ocgkb.query.lookup import find_cards
    from ocgkb.query.ranking import search
    from ocgkb.store.database import KnowledgeBase

    kb = KnowledgeBase(kb_path)
    kb.conn = recording = _RecordingConnection(kb.conn)
    for i in range(12):
        question = "连锁" * i + "".join(chr(0x4E00 + (i * 53 + k * 7) % 20000) for k in range(200))
        search(kb, question)
        find_cards(kb, question[:40])
    assert max(text.count("?") for text in recording.texts) <= 100  # lists of ranked ids only
    kb.close()


def test_what_is_read_of_a_knowledge_base_is_kept_with_it_and_dropped_with_it(kb_path):
    import gc
    import weakref

    from ocgkb.store.database import KnowledgeBase
    from ocgkb.views.home import home_view

    first = KnowledgeBase(kb_path)
    made = []
    assert first.memo("test", lambda: made.append(1) or [1]) is first.memo("test", lambda: made.append(2))
    assert made == [1]
    assert home_view(first) == home_view(first) and home_view(first) is not home_view(first)  # a copy each

    class Read:
        pass

    kept = weakref.ref(first.memo("test.read", Read))
    second = KnowledgeBase(kb_path)
    assert second.memo("test", lambda: "another") == "another"  # each knowledge base its own
    first.close()
    del first
    gc.collect()
    assert kept() is None
    second.close()
