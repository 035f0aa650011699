"""`python -m engine movement KIND --tables N`: build a movement and print it (JSON with --json)."""

from __future__ import annotations

import argparse
import json

from engine.commands._common import add_movement_size_arguments, movement_from_args
from engine.movements import KINDS

NAME = "movement"
HELP = "build a movement (mitchell, skip-mitchell, relay-mitchell, howell) and print it"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", choices=sorted(KINDS), help="the movement family")
    add_movement_size_arguments(parser, tables_required=True)
    parser.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    movement = movement_from_args(args.kind, args)
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
