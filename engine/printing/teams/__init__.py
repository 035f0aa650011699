"""A Bid Whist team tournament's paper: the team list, each round's tables, score sheets for
games played on paper, the playoff bracket, and the standings with the prize sheet.

The door works from the team list (a box to tick when a team is here, one when it has paid),
the room from the tables pinned on the wall (a round to a page; the whole night at once for a
schedule fixed before play), each table from its score sheet (the game's rule in words, a row
per hand, the final score, the Bostons and both teams' signatures), and the end of the night
from the bracket. The layouts take plain data (`TeamLine`, `TableLine`, `RoundLines`, the
engine's `Bracket.rounds`), so nothing here knows where the teams are kept.

Like every document in `engine.printing`, each function returns the bytes of one PDF and takes
`paper="a4"` or `"letter"`. Names are never cut short: a long one shrinks.

>>> aces, kings = TeamLine(1, "Aces", "Detroit"), TeamLine(2, "Kings", "Chicago")
>>> team_list_pdf("Spring Bid Whist", "2026-04-11", [aces, kings])[:5]
b'%PDF-'
>>> tables = [TableLine(1, aces, kings)]
>>> round_tables_pdf("Spring Bid Whist", None, [RoundLines(1, tuple(tables))], 3)[:5]
b'%PDF-'
>>> score_sheets_pdf("Spring Bid Whist", None, 1, tables, "first team to 7 points")[:5]
b'%PDF-'
"""

from engine.printing.teams.bracket import bracket_pdf
from engine.printing.teams.common import RoundLines, TableLine, TeamLine
from engine.printing.teams.score_sheets import HAND_ROWS, score_sheets_pdf
from engine.printing.teams.standings import PrizeLine, StandingLine, standings_pdf
from engine.printing.teams.tables import round_tables_pdf
from engine.printing.teams.team_list import team_list_pdf

__all__ = [
    "HAND_ROWS",
    "PrizeLine",
    "RoundLines",
    "StandingLine",
    "TableLine",
    "TeamLine",
    "bracket_pdf",
    "round_tables_pdf",
    "score_sheets_pdf",
    "standings_pdf",
    "team_list_pdf",
]
