"""Questions in, passages out: planning a question (plan.py), ranking passages
(ranking.py), finding cards and concepts by any name (lookup.py)."""
