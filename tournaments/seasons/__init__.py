"""The club's season: competitions over chosen evenings of any format (ladders, totals, most
improved, attendance, league points), members' handicaps and each member's history.

A season spans the formats, so this package sits beside `files`, above the three formats: it
reads each format's results through that format's `selectors/season.py` and never writes a
format's rows. The formats ask for a recompute by the task's name (`kernel.jobs`), so none of
them imports this package.
"""
