"""A published event as the season counts it: each named player of each ranked or withdrawn
pair, with the pair's rank, matchpoints and percentage (`engine.season.Appearance`).

Read from the event's stored standings (the latest version), so the season sees exactly the
figures the results page shows. An event not published gives nothing: the season counts an
evening once its director has published it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine.season import Appearance
from tournaments.events.models import Event, Pair, Standings


def published_events(club_id: int) -> list[int]:
    """The club's published events, by id (a rebuild of the season's ledger reads them all)."""
    return list(
        Event.objects.filter(club_id=club_id, status=Event.Status.PUBLISHED)
        .order_by("date", "pk")
        .values_list("pk", flat=True)
    )


def event_appearances(event_id: int) -> tuple[int | None, list[Appearance]]:
    """The event's club and its players' appearances; (None, []) for no such event, and
    (club, []) for one not published (or not yet scored)."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return None, []
    if event.status != Event.Status.PUBLISHED:
        return event.club_id, []
    stored = Standings.objects.filter(event_id=event_id).order_by("-version").values("data").first()
    if stored is None:
        return event.club_id, []
    pairs = {
        (section, number, direction): (name1, member1, name2, member2)
        for section, number, direction, name1, member1, name2, member2 in Pair.objects.filter(
            section__event_id=event_id, is_phantom=False
        ).values_list(
            "section__name", "number", "direction", "player1", "member1", "player2", "member2"
        )
    }
    found: list[Appearance] = []
    for section in stored["data"].get("sections", ()):
        one_winner = bool(section.get("one_winner"))
        for field in section.get("fields", ()):
            rows = field.get("rows", ())
            ranked = sum(1 for row in rows if not row.get("withdrew"))
            for row in rows:
                direction = "" if one_winner else str(row.get("direction") or "")
                pair = pairs.get((section["name"], int(row["pair"]), direction))
                if pair is None:
                    continue  # a phantom: nobody played
                entrant = f"{section['name']}:{direction}{row['pair']}"
                for name, member in ((pair[0], pair[1]), (pair[2], pair[3])):
                    if not name:
                        continue
                    found.append(
                        Appearance(
                            format="event",
                            play_id=event.pk,
                            play_name=event.name,
                            date=event.date,
                            entrant=entrant,
                            member_id=member,
                            name=name,
                            rank="" if row.get("withdrew") else str(row.get("rank") or ""),
                            field_size=ranked,
                            percentage=_exact(row.get("percentage")),
                            points=_exact(row.get("total")),
                        )
                    )
    return event.club_id, found


def _exact(figure: Any) -> Fraction | None:
    """A stored figure ({"exact": "61/2", "display": "30.50"}) as its fraction."""
    if not isinstance(figure, dict) or figure.get("exact") is None:
        return None
    return Fraction(str(figure["exact"]))
