"""Questions in, passages out: planning a question (plan.py), ranking passages
(ranking.py, scoring.py), finding cards and concepts by any name (lookup.py).
Every read of the knowledge base goes through ocgkb.store: nothing here holds SQL."""
