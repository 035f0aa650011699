"""The audit trail as the director reads it: the director's changes, every result as it was
entered and confirmed, and every call, newest first."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tournaments.events.bridge import engine_board, rules_for
from tournaments.events.models import AuditEntry, Board, DirectorCall, Event, Result


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    """Nested values as one level, keys joined with dots ("entry.ns_tricks")."""
    if not isinstance(value, dict):
        return {prefix: value}
    out: dict[str, Any] = {}
    for key, inner in value.items():
        out.update(_flat(inner, f"{prefix}.{key}" if prefix else str(key)))
    return out


def _shown(value: Any) -> str:
    if value is None or value == "":
        return "nothing"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def describe_change(before: Any, after: Any) -> str:
    """An audit entry's before and after as words: each value that changed, old to new
    ("entry ns_tricks 7 → 9; ns_score 1 → 3; status confirmed → corrected"), in the order the
    values were recorded; plain values are shown as they are."""
    if not isinstance(before, dict) and not isinstance(after, dict):
        if before in (None, "") and after in (None, ""):
            return ""
        return f"{_shown(before)} → {_shown(after)}"
    old = _flat(before) if isinstance(before, dict) else {}
    new = _flat(after) if isinstance(after, dict) else {}
    parts = []
    for key in list(dict.fromkeys([*old, *new])):
        if old.get(key) == new.get(key):
            continue
        label = key.replace("_", " ").replace(".", " ")
        if key not in old:
            parts.append(f"{label} {_shown(new[key])}")
        else:
            parts.append(f"{label} {_shown(old.get(key))} → {_shown(new.get(key))}")
    return "; ".join(parts)


@dataclass(frozen=True)
class AuditLine:
    """One line of the audit trail as the director reads it."""

    at: Any
    who: str
    action: str
    target: str
    change: str
    reason: str = ""

    def mentions(self, words: str) -> bool:
        text = f"{self.action} {self.target} {self.change} {self.reason} {self.who}".lower()
        return words.lower() in text


def audit_lines(event: Event, query: str = "", limit: int = 2000) -> list[AuditLine]:
    """Everything that happened to the event's results, newest first: the director's changes
    (audit entries, each value old → new), every result as it was entered and confirmed (from
    the results themselves, so a tablet's submission costs no extra write), and every call and
    dispute with its handling. `query` keeps the lines that mention it."""
    lines: list[AuditLine] = [
        AuditLine(
            a.at,
            a.who or "—",
            a.action.capitalize(),
            a.target,
            describe_change(a.before, a.after),
            a.reason,
        )
        for a in AuditEntry.objects.filter(event=event).select_related("user")[:limit]
    ]
    section = event.section
    rules = rules_for(event)
    boards = {b.number: b for b in Board.objects.filter(event=event).order_by()}
    results = (
        Result.objects.filter(section=section)
        .select_related("ns_pair", "ew_pair", "entered_by")
        .order_by("-created_at")[:limit]
    )
    for r in results:
        if r.status == Result.Status.ARTIFICIAL and r.entry is None:
            continue  # the director's artificial score is an audit entry already
        where = (
            f"board {r.board_number}, table {r.table}, round {r.round} "
            f"({r.ns_pair.label} v {r.ew_pair.label})"
        )
        who = str(r.entered_by) if r.entered_by else (r.entered_by_device or "—")
        if r.status == Result.Status.CORRECTED:
            said = "corrected later (see the correction)"
        elif r.entry is not None:
            parsed = rules.parse_entry(engine_board(boards[r.board_number]), r.entry)
            score = "" if r.ns_score is None else f" (NS {r.ns_score:+d})"
            said = f"{rules.describe(parsed)}{score}"
        else:
            said = ""
        at_once = r.confirmed_at is not None and r.confirmed_at == r.created_at
        lines.append(
            AuditLine(
                r.created_at,
                who,
                "Result entered and confirmed" if at_once else "Result entered",
                where,
                said,
                r.flag and f"looked unusual: {r.flag}",
            )
        )
        if r.confirmed_at is not None and not at_once:
            lines.append(AuditLine(r.confirmed_at, who, "Result confirmed", where, ""))
    for call in DirectorCall.objects.filter(section=section).order_by():
        target = f"table {call.table}" + (f", round {call.round}" if call.round else "")
        said = call.get_reason_display() + (f": {call.note}" if call.note else "")
        lines.append(
            AuditLine(call.created_at, f"table {call.table}", "Director called", target, said)
        )
        if call.handled_at is not None and call.cancelled:
            lines.append(
                AuditLine(call.handled_at, f"table {call.table}", "Call taken back", target, said)
            )
        elif call.handled_at is not None:
            lines.append(AuditLine(call.handled_at, "director", "Call handled", target, said))
    if query:
        lines = [line for line in lines if line.mentions(query)]
    lines.sort(key=lambda line: line.at, reverse=True)
    return lines[:limit]
