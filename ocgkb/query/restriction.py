"""Filters made into what the store restricts a search by: a section checked to
exist, a concept and a card found by any of their names. A filter naming nothing
is bad input (QueryError), never "no results"."""

from __future__ import annotations

from ocgkb.messages import no_such_card
from ocgkb.query.filters import Filters
from ocgkb.query.plan import QueryError
from ocgkb.store.database import KnowledgeBase
from ocgkb.store.search_index import Restriction, section_exists


def restriction(kb: KnowledgeBase, filters: Filters) -> Restriction:
    """The store's restriction for these filters."""
    if filters.section and not section_exists(kb, filters.section):
        raise QueryError(f"no section {filters.section}")
    concept = None
    if filters.concept:
        # The fuzzy lookup loads only for a search that names a concept or a card.
        from ocgkb.query.lookup import NotFound, find_concept

        try:
            concept = find_concept(kb, filters.concept)["id"]
        except NotFound as exc:
            raise QueryError(str(exc)) from None
    card = None
    if filters.card:
        from ocgkb.query.lookup import find_cards

        matches = find_cards(kb, filters.card, limit=1)
        if not matches:
            raise QueryError(no_such_card(filters.card))
        card = matches[0].name
    return Restriction.of(filters.kind, filters.section, concept, card, filters.since, filters.until)
