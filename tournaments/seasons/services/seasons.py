"""Every write of the club's seasons: seasons and competitions set up, changed, reordered and
removed, the evenings a competition counts, and the competitions' tables recomputed.

Each write is one transaction, audited in `SeasonAudit`, and refused (`SeasonRefused`, changing
nothing) with a message saying what is wrong and what to do. A competition's table is computed
by the engine (`engine.season.competition_table`) from the season's ledger and stored on the
competition, so the pages only read it: after every publish the job (`season_play_changed` in
`tournaments.tasks`) takes the evening's lines again and recomputes the competitions of the
seasons covering its date, and saving a competition recomputes it at once.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from engine.season import (
    Appearance,
    CompetitionRuleError,
    HandicapRule,
    averages_before,
    competition_table,
    evening_handicaps,
)
from tournaments.kernel.audit import User, actor, audit_write
from tournaments.kernel.models import Club
from tournaments.kernel.names import date_checked, name_checked
from tournaments.kernel.numbers import NumberRefused, optional_whole, whole
from tournaments.kernel.refusals import Refused
from tournaments.seasons.models import Competition, CompetitionPlay, Season, SeasonAudit, SeasonLine
from tournaments.seasons.selectors.ledger import appearances
from tournaments.seasons.selectors.seasons import (
    competition_plays,
    evenings_found,
    formats_of,
    rule_of,
)
from tournaments.seasons.services.ledger import play_refresh

#: The longest handicap window and the most sessions a setting may name.
MOST_SESSIONS = 999

FORMAT_WORDS = {"event": "duplicate pairs", "drive": "whist drive", "tournament": "Bid Whist teams"}


class SeasonRefused(Refused):
    """A season or competition change that breaks a rule; the message says which and why."""


# ---- the rule of one row ---------------------------------------------------------------------


def _name(value: Any, model: Any, what: str) -> str:
    if not isinstance(value, str):
        raise SeasonRefused(f"{what[:1].upper()}{what[1:]} is text.")
    return name_checked(
        value, model=model, column="name", what=what, required=True, refused=SeasonRefused
    )


def _date(value: Any, what: str) -> dt.date:
    if isinstance(value, str):
        try:
            value = dt.date.fromisoformat(value.strip())
        except ValueError:
            raise SeasonRefused(f"{what[:1].upper()}{what[1:]} is a date (YYYY-MM-DD).") from None
    if value is None:
        raise SeasonRefused(f"Give {what} (YYYY-MM-DD).")
    return date_checked(value, what=what, refused=SeasonRefused)


def _whole(value: Any, what: str, low: int) -> int:
    try:
        return whole(value, what, low=low, high=MOST_SESSIONS)
    except NumberRefused as exc:
        raise SeasonRefused(str(exc)) from None


def _choice(value: Any, choices: Any, what: str) -> str:
    if value not in choices.values:
        raise SeasonRefused(
            f"{what[:1].upper()}{what[1:]} is one of {', '.join(choices.values)}, "
            f"not \u201c{str(value)[:40]}\u201d."
        )
    return str(value)


def _flag(value: Any, what: str) -> bool:
    if isinstance(value, bool):
        return value
    raise SeasonRefused(f"{what[:1].upper()}{what[1:]} is yes or no (true or false).")


def _season_snapshot(season: Season) -> dict[str, Any]:
    return {
        "name": season.name,
        "starts": season.starts.isoformat(),
        "ends": season.ends.isoformat(),
        "handicap_basis": season.handicap_basis,
        "handicap_window": season.handicap_window,
        "handicap_min_sessions": season.handicap_min_sessions,
    }


def _competition_snapshot(competition: Competition) -> dict[str, Any]:
    return {
        "name": competition.name,
        "kind": competition.kind,
        "formats": list(formats_of(competition)),
        "best_of": competition.best_of,
        "min_sessions": competition.min_sessions,
        "ties": competition.ties,
        "handicapped": competition.handicapped,
        "position": competition.position,
    }


def _audit(
    season: Season | None, club: Club, user: User, action: str, target: str, **kw: Any
) -> None:
    audit_write(
        SeasonAudit, user=user, action=action, target=target[:80], club=club, season=season, **kw
    )


def _lock(club: Club) -> None:
    """The club's row, locked until the transaction ends: the seasons' writes queue here."""
    Club.objects.select_for_update().filter(pk=club.pk).exists()


def _check_season(season: Season) -> None:
    if season.ends < season.starts:
        raise SeasonRefused(
            f"The season ends ({season.ends:%d %b %Y}) before it starts "
            f"({season.starts:%d %b %Y}): give an end on or after the start."
        )
    key = season.name.casefold()
    for other in Season.objects.filter(club_id=season.club_id).exclude(pk=season.pk):
        if other.name.casefold() == key:
            raise SeasonRefused(
                f"The club already has a season called {other.name}: choose another name."
            )


def _save(row: Season | Competition, what: str) -> None:
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError:  # the lock makes this unreachable; the database says it anyway
        raise SeasonRefused(f"{what} {row.name} is already there: choose another name.") from None


_UNSET: Any = object()


# ---- seasons ----------------------------------------------------------------------------------


@transaction.atomic
def season_create(
    *,
    club: Club,
    name: Any,
    starts: Any,
    ends: Any,
    handicap_basis: Any = Season.Basis.FIXED.value,
    handicap_window: Any = 10,
    handicap_min_sessions: Any = 3,
    user: User = None,
) -> Season:
    """A new season of the club, or a refusal saying why not."""
    season = Season(
        club=club,
        name=_name(name, Season, "the season's name"),
        starts=_date(starts, "the season's first day"),
        ends=_date(ends, "the season's last day"),
        handicap_basis=_choice(handicap_basis, Season.Basis, "the handicap basis"),
        handicap_window=_whole(handicap_window, "The handicap window", 1),
        handicap_min_sessions=_whole(handicap_min_sessions, "The sessions for a handicap", 0),
        created_by=actor(user),
    )
    _lock(club)
    _check_season(season)
    _save(season, "The season")
    _audit(
        season, club, user, "season added", f"season {season.name}", after=_season_snapshot(season)
    )
    return season


@transaction.atomic
def season_edit(
    *,
    season: Season,
    name: Any = _UNSET,
    starts: Any = _UNSET,
    ends: Any = _UNSET,
    handicap_basis: Any = _UNSET,
    handicap_window: Any = _UNSET,
    handicap_min_sessions: Any = _UNSET,
    user: User = None,
) -> Season:
    """The season changed as given (what is not given stays); its tables recomputed, since
    its dates and handicaps decide them."""
    _lock(season.club)
    season = Season.objects.select_for_update().get(pk=season.pk)
    before = _season_snapshot(season)
    if name is not _UNSET:
        season.name = _name(name, Season, "the season's name")
    if starts is not _UNSET:
        season.starts = _date(starts, "the season's first day")
    if ends is not _UNSET:
        season.ends = _date(ends, "the season's last day")
    if handicap_basis is not _UNSET:
        season.handicap_basis = _choice(handicap_basis, Season.Basis, "the handicap basis")
    if handicap_window is not _UNSET:
        season.handicap_window = _whole(handicap_window, "The handicap window", 1)
    if handicap_min_sessions is not _UNSET:
        season.handicap_min_sessions = _whole(
            handicap_min_sessions, "The sessions for a handicap", 0
        )
    _check_season(season)
    outside = _chosen_outside(season)
    if outside:
        raise SeasonRefused(
            f"{outside} is chosen for a competition and would fall outside the season's dates: "
            "take it out of the competition first, or keep the dates around it."
        )
    _save(season, "The season")
    after = _season_snapshot(season)
    if after != before:
        _audit(
            season,
            season.club,
            user,
            "season changed",
            f"season {season.name}",
            before=before,
            after=after,
        )
    season_recompute(season=season)
    return season


def _chosen_outside(season: Season) -> str:
    """The first chosen evening outside the season's dates, in words ("" if none)."""
    keys = set(
        CompetitionPlay.objects.filter(competition__season=season).values_list("format", "play_id")
    )
    for _key, (_, date, title) in sorted(evenings_found(keys).items()):
        if not season.starts <= date <= season.ends:
            return f"{title} ({date:%d %b %Y})"
    return ""


@transaction.atomic
def season_delete(*, season: Season, user: User = None) -> None:
    """The season and its competitions gone (the evenings themselves stay)."""
    _lock(season.club)
    _audit(
        None,
        season.club,
        user,
        "season removed",
        f"season {season.name}",
        before=_season_snapshot(season),
    )
    season.delete()


# ---- competitions ------------------------------------------------------------------------------


def _competition_fields(
    competition: Competition,
    *,
    name: Any,
    kind: Any,
    count_events: Any,
    count_drives: Any,
    count_teams: Any,
    best_of: Any,
    min_sessions: Any,
    ties: Any,
    handicapped: Any,
) -> None:
    if name is not _UNSET:
        competition.name = _name(name, Competition, "the competition's name")
    if kind is not _UNSET:
        competition.kind = _choice(kind, Competition.Kind, "the competition's kind")
    if count_events is not _UNSET:
        competition.count_events = _flag(count_events, "counting pairs events")
    if count_drives is not _UNSET:
        competition.count_drives = _flag(count_drives, "counting whist drives")
    if count_teams is not _UNSET:
        competition.count_teams = _flag(count_teams, "counting Bid Whist teams")
    if best_of is not _UNSET:
        try:
            competition.best_of = optional_whole(best_of, "Best of", low=1, high=MOST_SESSIONS)
        except NumberRefused as exc:
            raise SeasonRefused(str(exc)) from None
    if min_sessions is not _UNSET:
        competition.min_sessions = _whole(min_sessions, "The evenings to qualify", 0)
    if ties is not _UNSET:
        competition.ties = _choice(ties, Competition.Ties, "the tie rule")
    if handicapped is not _UNSET:
        competition.handicapped = _flag(handicapped, "handicapped")


def _check_competition(competition: Competition, *, plays_too: bool = True) -> None:
    """The competition's settings make a table, its name is its season's only one, and its
    chosen evenings (when `plays_too`) still fit its formats and the season's dates."""
    if not formats_of(competition):
        raise SeasonRefused(
            "Choose at least one format to count: duplicate pairs, whist drives or Bid Whist teams."
        )
    try:
        rule_of(competition)
    except CompetitionRuleError as exc:
        raise SeasonRefused(str(exc)) from None
    key = competition.name.casefold()
    for other in Competition.objects.filter(season_id=competition.season_id).exclude(
        pk=competition.pk
    ):
        if other.name.casefold() == key:
            raise SeasonRefused(
                f"The season already has a competition called {other.name}: choose another name."
            )
    if competition.pk and plays_too:
        _check_plays(competition, competition_plays([competition.pk])[competition.pk])


@transaction.atomic
def competition_add(
    *,
    season: Season,
    name: Any,
    kind: Any = Competition.Kind.LADDER.value,
    count_events: Any = True,
    count_drives: Any = False,
    count_teams: Any = False,
    best_of: Any = None,
    min_sessions: Any = 0,
    ties: Any = Competition.Ties.SHARE.value,
    handicapped: Any = False,
    plays: Sequence[tuple[str, int]] | None = None,
    user: User = None,
) -> Competition:
    """A new competition at the end of the season's list, its evenings chosen (None or none:
    every published evening of its formats), and its table computed at once."""
    _lock(season.club)
    competition = Competition(season=season, position=season.competitions.count())
    _competition_fields(
        competition, name=name, kind=kind, count_events=count_events, count_drives=count_drives,
        count_teams=count_teams, best_of=best_of, min_sessions=min_sessions, ties=ties,
        handicapped=handicapped,
    )  # fmt: skip
    _check_competition(competition, plays_too=False)
    chosen = _plays_checked(competition, plays or ())
    _save(competition, "The competition")
    CompetitionPlay.objects.bulk_create(
        CompetitionPlay(competition=competition, format=f, play_id=p) for f, p in sorted(chosen)
    )
    after = {**_competition_snapshot(competition), "plays": _plays_text(chosen)}
    _audit(
        season,
        season.club,
        user,
        "competition added",
        f"competition {competition.name}",
        after=after,
    )
    season_recompute(season=season, only=[competition.pk])
    competition.refresh_from_db()
    return competition


@transaction.atomic
def competition_edit(
    *,
    competition: Competition,
    name: Any = _UNSET,
    kind: Any = _UNSET,
    count_events: Any = _UNSET,
    count_drives: Any = _UNSET,
    count_teams: Any = _UNSET,
    best_of: Any = _UNSET,
    min_sessions: Any = _UNSET,
    ties: Any = _UNSET,
    handicapped: Any = _UNSET,
    plays: Sequence[tuple[str, int]] | None = _UNSET,
    user: User = None,
) -> Competition:
    """The competition changed as given (what is not given stays; `plays` replaces the chosen
    evenings), and its table recomputed at once."""
    season = competition.season
    _lock(season.club)
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    before = {**_competition_snapshot(competition), "plays": _plays_text(_stored(competition))}
    _competition_fields(
        competition, name=name, kind=kind, count_events=count_events, count_drives=count_drives,
        count_teams=count_teams, best_of=best_of, min_sessions=min_sessions, ties=ties,
        handicapped=handicapped,
    )  # fmt: skip
    if plays is not _UNSET:
        _check_competition(competition, plays_too=False)
        chosen = _plays_checked(competition, plays or ())
        CompetitionPlay.objects.filter(competition=competition).delete()
        CompetitionPlay.objects.bulk_create(
            CompetitionPlay(competition=competition, format=f, play_id=p) for f, p in sorted(chosen)
        )
    else:
        _check_competition(competition)
    _save(competition, "The competition")
    after = {**_competition_snapshot(competition), "plays": _plays_text(_stored(competition))}
    if after != before:
        _audit(
            season,
            season.club,
            user,
            "competition changed",
            f"competition {competition.name}",
            before=before,
            after=after,
        )
    season_recompute(season=season, only=[competition.pk])
    competition.refresh_from_db()
    return competition


def competition_plays_choose(
    *, competition: Competition, plays: Sequence[tuple[str, int]], user: User = None
) -> Competition:
    """The competition's chosen evenings replaced by `plays` (none: every published evening
    of its formats within the season's dates), its table recomputed."""
    return competition_edit(competition=competition, plays=plays, user=user)


def _stored(competition: Competition) -> set[tuple[str, int]]:
    return set(
        CompetitionPlay.objects.filter(competition=competition).values_list("format", "play_id")
    )


def _plays_text(plays: Iterable[tuple[str, int]]) -> list[str]:
    return [f"{f} {p}" for f, p in sorted(plays)]


def _plays_checked(competition: Competition, plays: Iterable[Any]) -> set[tuple[str, int]]:
    """The chosen evenings, each an evening of the season's club, of a format the competition
    counts, within the season's dates; else a refusal naming the first that is not."""
    keys: set[tuple[str, int]] = set()
    for item in plays:
        try:
            fmt, play_id = item
        except (TypeError, ValueError):
            raise SeasonRefused(
                "Each chosen evening is a format and an id (event, drive or tournament)."
            ) from None
        if fmt not in FORMAT_WORDS:
            raise SeasonRefused(
                f"No such format as \u201c{str(fmt)[:20]}\u201d: event, drive or tournament."
            )
        try:
            keys.add((str(fmt), whole(play_id, "An evening's id", low=1)))
        except NumberRefused as exc:
            raise SeasonRefused(str(exc)) from None
    _check_plays(competition, keys)
    return keys


def _check_plays(competition: Competition, keys: set[tuple[str, int]]) -> None:
    season = competition.season
    counted = formats_of(competition)
    found = evenings_found(keys)
    for fmt, play_id in sorted(keys):
        if (fmt, play_id) not in found:
            raise SeasonRefused(f"There is no {FORMAT_WORDS[fmt]} evening {play_id}.")
        club_id, date, title = found[(fmt, play_id)]
        if club_id != season.club_id:
            raise SeasonRefused(
                f"{FORMAT_WORDS[fmt].capitalize()} evening {play_id} is another club's: "
                "choose your own club's evenings."
            )
        if fmt not in counted:
            raise SeasonRefused(
                f"{title} is a {FORMAT_WORDS[fmt]} evening, which "
                f"{competition.name or 'this competition'} does not count: "
                f"tick {FORMAT_WORDS[fmt]} or leave it out."
            )
        if not season.starts <= date <= season.ends:
            raise SeasonRefused(
                f"{title} ({date:%d %b %Y}) is outside the season ({season.starts:%d %b %Y} to "
                f"{season.ends:%d %b %Y}): leave it out or change the season's dates."
            )


@transaction.atomic
def competition_remove(*, competition: Competition, user: User = None) -> None:
    """The competition gone; the others keep their order."""
    season = competition.season
    _lock(season.club)
    _audit(
        season,
        season.club,
        user,
        "competition removed",
        f"competition {competition.name}",
        before=_competition_snapshot(competition),
    )
    competition.delete()
    for position, pk in enumerate(
        season.competitions.order_by("position", "id").values_list("pk", flat=True)
    ):
        Competition.objects.filter(pk=pk).update(position=position)


@transaction.atomic
def competitions_reorder(*, season: Season, order: Sequence[Any], user: User = None) -> None:
    """The season's competitions in the order of their ids in `order` (every one, once)."""
    _lock(season.club)
    present = list(season.competitions.order_by("position", "id").values_list("pk", flat=True))
    try:
        wanted = [whole(pk, "A competition's id", low=1) for pk in order]
    except NumberRefused as exc:
        raise SeasonRefused(str(exc)) from None
    if sorted(wanted) != sorted(present):
        raise SeasonRefused(
            "Give every competition of the season once, in the order wanted "
            f"(its competitions are {', '.join(str(pk) for pk in present) or 'none'})."
        )
    for position, pk in enumerate(wanted):
        Competition.objects.filter(pk=pk).update(position=position)
    _audit(
        season,
        season.club,
        user,
        "competitions reordered",
        f"season {season.name}",
        before=present,
        after=wanted,
    )


# ---- the tables ---------------------------------------------------------------------------------


def _fingerprint(competition: Competition, counted: Sequence[Appearance], extra: Any) -> str:
    """What the table is computed from, hashed: the settings, the lines counted (and the
    handicaps or averages before the season): equal, the table is unchanged and not written."""
    digest = hashlib.sha256()
    digest.update(json.dumps(_competition_snapshot(competition), sort_keys=True).encode())
    for a in counted:
        digest.update(
            f"{a.format}|{a.play_id}|{a.entrant}|{a.member_id}|{a.name}|{a.percentage}|"
            f"{a.points}|{a.wins}\n".encode()
        )
    digest.update(repr(extra).encode())
    return digest.hexdigest()


def season_recompute(
    *, season: Season, only: Sequence[int] | None = None, force: bool = False
) -> int:
    """Every competition of the season (or those in `only`) computed again from the ledger, in
    one read of the ledger; how many tables changed. A table whose inputs are unchanged is not
    rewritten, but its time is brought forward (the page says "as of" it)."""
    competitions = list(season.competitions.order_by("position", "id"))
    if only is not None:
        competitions = [c for c in competitions if c.pk in only]
    if not competitions:
        return 0
    chosen = competition_plays([c.pk for c in competitions])
    rules = {c.pk: rule_of(c) for c in competitions}
    needs_history = any(c.handicapped or c.kind == "improved" for c in competitions)
    formats = tuple(
        sorted(
            {f for rule in rules.values() for f in rule.formats}
            | ({"event"} if needs_history else set())
        )
    )
    lines = appearances(
        season.club_id,
        starts=None if needs_history else season.starts,
        ends=season.ends,
        formats=formats,
    )
    in_season = [a for a in lines if a.date >= season.starts]
    handicap_rule = HandicapRule(season.handicap_window, season.handicap_min_sessions)
    handicaps: dict[tuple[str, int], dict[int, Fraction]] | None = None
    baseline: dict[int, Fraction] | None = None
    now = timezone.now()
    changed = 0
    for competition in competitions:
        rule = rules[competition.pk]
        picked = chosen[competition.pk]
        counted = [
            a for a in in_season if a.format in rule.formats and (not picked or a.evening in picked)
        ]
        extra: Any = None
        if rule.handicapped:
            if handicaps is None:
                fixed = season.handicap_basis == Season.Basis.FIXED
                handicaps = evening_handicaps(
                    lines, handicap_rule, fixed_at=season.starts if fixed else None
                )
            evenings = {a.evening for a in counted}
            extra = sorted((k, sorted(v.items())) for k, v in handicaps.items() if k in evenings)
        if rule.kind == "improved":
            if baseline is None:
                baseline = averages_before(lines, handicap_rule, season.starts)
            extra = sorted(baseline.items())
        fingerprint = _fingerprint(competition, counted, extra)
        if fingerprint == competition.computed_from and competition.table is not None and not force:
            Competition.objects.filter(pk=competition.pk).update(computed_at=now)
            continue
        table = competition_table(rule, counted, handicaps=handicaps, baseline=baseline)
        Competition.objects.filter(pk=competition.pk).update(
            table=table.to_dict(), computed_at=now, computed_from=fingerprint
        )
        changed += 1
    return changed


def competitions_recompute(
    *, club_id: int, dates: Iterable[dt.date] | None = None, force: bool = False
) -> int:
    """Every competition of the club's seasons (those covering one of `dates` when given)
    computed again: one read of the ledger per season. How many tables changed."""
    seasons = list(Season.objects.filter(club_id=club_id).order_by("starts", "pk"))
    if dates is not None:
        days = set(dates)
        # A season's handicaps and most-improved averages read evenings before it, so an
        # evening before a season can change it too.
        seasons = [
            s for s in seasons
            if any(s.starts <= d <= s.ends for d in days)
            or (any(d < s.starts for d in days) and _reads_history(s))
        ]  # fmt: skip
    return sum(season_recompute(season=season, force=force) for season in seasons)


def _reads_history(season: Season) -> bool:
    """Whether a competition of the season reads evenings before it (handicaps, averages)."""
    return season.competitions.filter(Q(handicapped=True) | Q(kind="improved")).exists()


def play_changed(*, format_name: str, play_id: int) -> int | None:
    """An evening published, corrected or reopened: its ledger lines taken again, then the
    competitions of the seasons covering its date (before and after) recomputed. The club
    (None: no such evening). Idempotent, so the task may run twice."""
    dates = set(
        SeasonLine.objects.filter(format=format_name, play_id=play_id).values_list(
            "date", flat=True
        )
    )
    club_id = play_refresh(format_name=format_name, play_id=play_id)
    if club_id is None:
        return None
    dates |= set(
        SeasonLine.objects.filter(format=format_name, play_id=play_id).values_list(
            "date", flat=True
        )
    )
    if dates:
        competitions_recompute(club_id=club_id, dates=dates)
    return club_id
