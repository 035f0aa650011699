"""Double-dummy analysis of clubwhist boards: trick tables and par per game, and a
progress-reporting batch function for background jobs.

Boards are translated into solver positions with the games' own rules (`engine.games`): the
suit a card counts as (`effective_suit`), its strength (`strength`, which knows downtown and
the jokers), the starting hands and the Open Whist columns, so the solver plays exactly the
game's legal plays (`engine.dd.base`).

Each game's questions are answered by its `GameAnalysis`, found by its rules class (see
docs/development/double-dummy.md for par game by game):
- games whose board fixes trumps (classic whist, Open Whist): `engine.dd.base`, par is the
  double-dummy tricks for the board's trumps, the player on the dealer's left leading (three
  players: each player's paranoid value, that player against the other two);
- Candid Whist: `engine.dd.candid`, the auction equilibrium over the table of every declarer
  and strain;
- Bid Whist: `engine.dd.bidwhist`, the auction equilibrium of the single round of bidding over
  the best books of every seat and contract type, each a maximum over the declarer's discards
  (that module documents the search, the rule and its budget).
A game with a par of its own declares it in `engine/dd/<game>.py` and is entered in
`ANALYSES` (or, for a while, with `register_analysis`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from engine.boards import Board
from engine.dd import Backend
from engine.dd.base import (
    STRAINS,
    GameAnalysis,
    Par,
    cached,
    clear_cache,
    deal_key,
    position_for,
    strain_name,
)
from engine.dd.bidwhist import BidWhistAnalysis
from engine.dd.candid import CandidAnalysis
from engine.dd.position import DDInputError
from engine.games.base import GameRules
from engine.games.bidwhist import BidWhistRules
from engine.games.candid import CandidRules

__all__ = [
    "ANALYSES",
    "STRAINS",
    "BoardAnalysis",
    "Par",
    "analyse_boards",
    "analysis_for",
    "board_tricks",
    "clear_cache",
    "hardest_first",
    "par",
    "par_line",
    "par_summary",
    "position_for",
    "register_analysis",
    "strain_name",
    "table",
    "unregister_analysis",
]

#: The games with double-dummy questions answered their own way, by rules class; every other
#: game (its trumps fixed by the board) is answered by `GameAnalysis` itself.
ANALYSES: dict[type[GameRules], GameAnalysis] = {
    BidWhistRules: BidWhistAnalysis(),
    CandidRules: CandidAnalysis(),
}
_DEFAULT = GameAnalysis()


def register_analysis(rules: type[GameRules], analysis: GameAnalysis) -> None:
    """Answer game `rules`'s double-dummy questions with `analysis` (a game added for a while)."""
    ANALYSES[rules] = analysis


def unregister_analysis(rules: type[GameRules]) -> None:
    ANALYSES.pop(rules, None)


def analysis_for(rules: GameRules) -> GameAnalysis:
    """The analysis of `rules`'s game: its own, or its nearest parent game's, or the default."""
    mro = type(rules).__mro__
    own = [game for game in ANALYSES if isinstance(rules, game)]
    return ANALYSES[min(own, key=mro.index)] if own else _DEFAULT


def board_tricks(
    board: Board, rules: GameRules, *, backend: Backend | None = None
) -> dict[str, Any]:
    """The double-dummy result of the board as dealt: its trumps, the dealer's left leading.

    Returns {"trumps", "leader", "ns", "ew"} (4 seats) or {"trumps", "leader", "tricks":
    {seat: paranoid value}} (three-player Open Whist). DDInputError for the auction games.
    """
    rules.check_board(board)
    return analysis_for(rules).tricks(board, rules, backend)


def table(board: Board, rules: GameRules, *, backend: Backend | None = None) -> dict[str, Any]:
    """Tricks won by the declarer's side for every declarer and strain, the declarer's
    left-hand opponent leading (Candid Whist's lead rule, the bridge convention).

    Three-player Open Whist: for each player and strain, that player's paranoid value when the
    player on its left leads.

    Bid Whist: for every seat, the declaring side's best books (kitty book included) for each
    of the ten contract types ("uptown C" .. "uptown S", "downtown C" .. "downtown S",
    "notrump uptown", "notrump downtown"), the declarer choosing the discard and leading;
    plus "approximate": the cells ("N uptown S") the table budget left at the best discard
    found rather than proven best.
    """
    rules.check_board(board)
    return analysis_for(rules).table(board, rules, backend)


def par(board: Board, rules: GameRules, *, backend: Backend | None = None) -> Par:
    """Par of one board under `rules` (see the module docstring for each game)."""
    rules.check_board(board)
    analysis = analysis_for(rules)
    value: Par = cached(deal_key(board, rules, "par"), lambda: analysis.par(board, rules, backend))
    if value.board != board.number:
        value = Par(board.number, value.contracts, value.ns_score, value.tricks, value.approximate)
    return value


def hardest_first(boards: Iterable[Board], rules: GameRules) -> list[Board]:
    """The boards in the order to hand them out to parallel workers: the hardest first, by the
    game's cheap guess (`GameAnalysis.hardness`; Bid Whist: the weaker side's high-card
    points), ties in the order given. With two workers the last board to finish is then a
    short one, instead of the longest starting when the other worker has nothing left."""
    analysis = analysis_for(rules)
    items = list(boards)
    return sorted(items, key=lambda board: -analysis.hardness(board, rules))


# ---- batch -------------------------------------------------------------------------------

Progress = Callable[[int, int, int], None]
"""progress(done, total, board_number): called after each board."""


@dataclass(frozen=True)
class BoardAnalysis:
    board: int
    tricks: dict[str, Any] | None
    table: dict[str, Any] | None
    par: Par | None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "board": self.board,
            "tricks": self.tricks,
            "table": self.table,
            "par": None if self.par is None else self.par.to_dict(),
            "error": self.error,
        }


def par_summary(data: dict[str, Any]) -> str:
    """One line for the traveller and the hand record, from a stored `BoardAnalysis.to_dict()`.

    Games with fixed trumps: 'NS 8, EW 5 tricks (H trumps, E leads)'; auction games:
    '9H by N; NS +90'; a failed analysis: its error.
    """
    if data.get("error"):
        return str(data["error"])
    tricks = data.get("tricks") or {}
    if "ns" in tricks:
        return (
            f"NS {tricks['ns']}, EW {tricks['ew']} tricks "
            f"({tricks['trumps']} trumps, {tricks['leader']} leads)"
        )
    found = data.get("par") or {}
    contracts = ", ".join(found.get("contracts") or []) or "no contract"
    score = found.get("ns_score")
    text = contracts if score is None else f"{contracts}; NS {score:+d}"
    if found.get("approximate"):
        text += " (approximate)"
    return text


_SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
_CONTRACT = re.compile(r"\b(\d+)([CDHS])(?= by )")
_KIND_SUIT = re.compile(r"\b(uptown|downtown) ([CDHS])\b")
_TRUMPS = re.compile(r"(^|\()([CDHS])(?=( trumps|, ))")


def par_line(data: dict[str, Any]) -> str:
    """`par_summary` for people reading a hand record or a board page: suit symbols for the
    suit letters ("9♥ by N", "4 uptown ♠ by N", "♥ trumps"), and, where par is a contract
    that fails (a sacrifice), by how much: "9♥ by N, down 2; NS -20"."""
    text = par_summary(data)
    if data.get("error"):
        return text
    found = data.get("par") or {}
    tricks = found.get("tricks") or {}
    contracts = found.get("contracts") or []
    if len(contracts) == 1:
        target = _target(contracts[0])
        made = tricks.get("declarer_tricks", tricks.get("books"))
        if target is not None and isinstance(made, int) and made < target:
            text = text.replace(contracts[0], f"{contracts[0]}, down {target - made}", 1)
    text = _CONTRACT.sub(lambda m: m.group(1) + _SUIT_SYMBOLS[m.group(2)], text)
    text = _KIND_SUIT.sub(lambda m: f"{m.group(1)} {_SUIT_SYMBOLS[m.group(2)]}", text)
    return _TRUMPS.sub(lambda m: m.group(1) + _SUIT_SYMBOLS[m.group(2)], text)


def _target(contract: str) -> int | None:
    """The tricks (Candid: "9H by N" -> 9) or books (Bid Whist: "4 uptown S by N" -> 10,
    six plus the bid) a par contract needs; None when the text names no contract."""
    first = contract.split(" ", 1)[0]
    digits = "".join(ch for ch in first if ch.isdigit())
    if not digits:
        return None
    if first.isdigit():  # Bid Whist: "4 uptown S", a bid of books over six
        return 6 + int(digits)
    return int(digits)


def analyse_boards(
    boards: Iterable[Board],
    rules: GameRules,
    *,
    progress: Progress | None = None,
    with_table: bool = True,
    backend: Backend | None = None,
) -> list[BoardAnalysis]:
    """Analyse a board set for a background job (plain Python: the tournaments app wraps it in
    a Celery task). A board the solver cannot handle gets an `error` instead of stopping the
    set; `progress` is told after every board. A Bid Whist board costs at most about
    `bidwhist.PAR_BUDGET` + `TABLE_BUDGET` search nodes (some 40 s of one core at worst; par
    alone takes under half a second on most boards, 3 s on the hardest of the benchmark's 36);
    its table may list approximate cells. Workers sharing a set should take the boards in
    `hardest_first` order."""
    items = list(boards)
    out: list[BoardAnalysis] = []
    for done, board in enumerate(items, start=1):
        try:
            fixed = not rules.has_auction
            tricks = board_tricks(board, rules, backend=backend) if fixed else None
            # par first: for Bid Whist it needs far less than the table, which then reuses it
            result = par(board, rules, backend=backend)
            tab = table(board, rules, backend=backend) if with_table else None
            out.append(BoardAnalysis(board.number, tricks, tab, result))
        except DDInputError as exc:
            out.append(BoardAnalysis(board.number, None, None, None, str(exc)))
        if progress is not None:
            progress(done, len(items), board.number)
    return out
