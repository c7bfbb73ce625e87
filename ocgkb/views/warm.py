"""What a server reads of a knowledge base once, when it opens it, rather than on
its first visitors' requests."""

from __future__ import annotations

from ocgkb.query.candidates import warm
from ocgkb.store.database import KnowledgeBase
from ocgkb.study.graph import graph_of
from ocgkb.views.answer import answer_page
from ocgkb.views.concept import concept_names

WARM_QUESTION = "cost算不算卡片的效果"


def warm_up(kb: KnowledgeBase) -> dict[str, str]:
    """Read every passage, the graph and one question's word lists now; the
    concepts' names (what every page labels tags with). Raises as a request would,
    so a knowledge base that will not load fails here, before it is served."""
    warm(kb)
    graph_of(kb)
    # One question now: the query layer reads its word lists once per open
    # knowledge base; read now, they are not read on the first visitor's request.
    answer_page(kb, WARM_QUESTION)
    return concept_names(kb)
