"""`python -m engine movement KIND --tables N`: build a movement and print it (JSON with --json)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from engine.movements import KINDS, MovementError, build, default_arrow_switch

NAME = "movement"
HELP = "build a movement (mitchell, skip-mitchell, relay-mitchell, howell) and print it"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", choices=sorted(KINDS), help="the movement family")
    parser.add_argument("--tables", type=int, required=True, help="number of tables")
    parser.add_argument("--rounds", type=int, help="play fewer rounds than the full movement")
    parser.add_argument("--boards-per-round", type=int, help="boards in each set (k)")
    parser.add_argument(
        "--arrow-switch",
        metavar="ROUNDS",
        help="Mitchell only: comma-separated rounds to arrow-switch, or 'auto' (EBU practice)",
    )
    parser.add_argument("--phantom", action="store_true", help="a phantom pair: one pair sits out")
    parser.add_argument("--json", action="store_true", help="print JSON")


def _arrow_rounds(text: str | None, rounds: int) -> list[int]:
    if not text:
        return []
    if text.strip().lower() == "auto":
        return sorted(default_arrow_switch(rounds))
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise MovementError(f"--arrow-switch wants round numbers like 8,9, not {text!r}") from None


def run(args: argparse.Namespace) -> int:
    params: dict[str, Any] = {"tables": args.tables, "phantom": args.phantom}
    if args.rounds is not None:
        params["rounds"] = args.rounds
    if args.boards_per_round is not None:
        params["boards_per_round"] = args.boards_per_round
    if args.arrow_switch:
        if args.kind == "howell":
            raise MovementError("a Howell is already one field: there is nothing to switch")
        rounds = build(args.kind, **params).rounds
        params["arrow_switch"] = _arrow_rounds(args.arrow_switch, rounds)
    movement = build(args.kind, **params)
    if args.json:
        payload = {
            "kind": movement.kind,
            "tables": movement.tables,
            "rounds": [
                {"round": m.round, "table": m.table, "ns": m.ns, "ew": m.ew, "set": m.set}
                for m in movement.meetings
            ],
            "relay_sets": [{"round": r, "set": s} for r, s in movement.relay_sets],
            "shared_tables": [list(group) for group in movement.shared_tables],
            "round_count": movement.rounds,
            "sets": movement.sets,
            "boards_per_round": movement.boards_per_round,
            "one_winner": movement.one_winner,
            "arrow_switch_rounds": sorted(movement.arrow_switch_rounds),
            "description": movement.description,
        }
        print(json.dumps(payload, indent=1))
        return 0
    print(movement.description)
    for r in range(1, movement.rounds + 1):
        cells = [
            f"T{m.table}: {m.ns}-{m.ew} set {m.set}" for m in movement.meetings if m.round == r
        ]
        relay = [f"relay: set {s}" for rr, s in movement.relay_sets if rr == r]
        print(f"round {r}: " + "; ".join(cells + relay))
    return 0
