"""Paper: boards, a movement, rules and a standings document turned into PDF bytes.

Every function returns the bytes of one PDF and takes `paper="a4"` or `"letter"` (anything
else raises `PrintError`, a `ValueError`). Layouts are drawn with reportlab and the DejaVu
Sans fonts shipped in `fonts/`, so suit symbols and players' names print on any machine.
Nothing here knows Django: the app gathers the data and serves the file.

>>> from engine.dealing import deal_boards
>>> from engine.games import rules_for
>>> pdf = curtain_cards(deal_boards("classic", [1, 2], seed=1), rules_for("classic"))
>>> pdf[:5]
b'%PDF-'
"""

from engine.printing.curtain import curtain_cards
from engine.printing.duplication import duplication_sheet
from engine.printing.guides import pair_cards, table_cards
from engine.printing.pack import Progress, print_pack
from engine.printing.records import board_slips, hand_records
from engine.printing.results import results_sheet
from engine.printing.toolkit import PAPERS, PrintError
from engine.printing.travellers import travellers

__all__ = [
    "PAPERS",
    "PrintError",
    "Progress",
    "board_slips",
    "curtain_cards",
    "duplication_sheet",
    "hand_records",
    "pair_cards",
    "print_pack",
    "results_sheet",
    "table_cards",
    "travellers",
]
