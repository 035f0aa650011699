"""A progressive whist drive's paper: score cards, table cards and the prize sheet.

A paper drive runs on these three: each player carries a score card from table to table and
writes every hand on it, each table keeps a card saying which trumps come when and where its
players go, and the director reads the prize sheet out and pins it up. They are built from the
drive's settings (`engine.drives`), so a club can print them before anyone arrives; a score
card pre-prints where a player sits only for the hands whose seating is already known.

Like every document in `engine.printing`, each function returns the bytes of one PDF and takes
`paper="a4"` or `"letter"`. Cards are cut from a sheet several to a page: four while a score
card still leaves every hand a row to write in, else two side by side on a page turned
sideways. Names are never cut short: a long one wraps onto a second line and then shrinks.

>>> from engine.drives import DriveSettings
>>> score_cards_pdf(DriveSettings(players=4, hands=12), ["Ann", "Bob"])[:5]
b'%PDF-'
"""

from engine.printing.drives.common import trumps_words
from engine.printing.drives.prize_sheet import prize_sheet_pdf
from engine.printing.drives.score_cards import CardFigures, score_cards_layout, score_cards_pdf
from engine.printing.drives.table_cards import drive_table_cards_pdf

__all__ = [
    "CardFigures",
    "drive_table_cards_pdf",
    "prize_sheet_pdf",
    "score_cards_layout",
    "score_cards_pdf",
    "trumps_words",
]
