"""The seasons in a backup: each club's block of a whole backup carries its seasons (with their
competitions' settings and chosen evenings) under "seasons" and the seasons' trail under
"season_audit", registered with the kernel's backup framework as Django starts.

What is carried is what a director set; what is worked out from the evenings is not: the
ledger (`SeasonLine`) is taken again from the formats' published results, and each
competition's table computed again from it, once the restore has written the evenings. So the
season pages show after a restore the tables they showed before it.

A competition's chosen evenings name their evenings by format and id. A restore keeps the
backup's ids when none is taken here and gives a document new ones throughout otherwise, so the
chosen evenings are written last (`seasons_after_restore`, a step the kernel runs once every
format's documents are in), each under the id its evening got, which the restore's report
says. A chosen evening the backup does not hold is refused, naming it. A backup before version 5
has no seasons and is read as holding none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.season import CompetitionRuleError
from tournaments.drives.services.backup import RestoredDrive
from tournaments.events.services.backup import RestoredEvent
from tournaments.kernel.backup.checks import check_ids_once, check_names, check_range
from tournaments.kernel.backup.dump import row, usernames
from tournaments.kernel.backup.registry import (
    register_after_restore,
    register_backup_club_part,
)
from tournaments.kernel.backup.report import RestoreReport, report_order
from tournaments.kernel.backup.rows import (
    Keyed,
    UserRef,
    as_object,
    check_unique,
    list_in,
    load_row,
)
from tournaments.kernel.backup.schema import (
    AUDIT_FIELDS,
    BACKUP_FORMAT,
    FIELDS,
    IMPLIED,
    OMITTED,
    OMITTED_MODELS,
    Model,
    RestoreRefused,
)
from tournaments.kernel.backup.writing import (
    insert_rows,
    link_users_or_words,
    move_sequences_past,
    users_named,
)
from tournaments.kernel.models import Club
from tournaments.seasons.models import (
    Competition,
    CompetitionPlay,
    Season,
    SeasonAudit,
    SeasonLine,
)
from tournaments.seasons.selectors.seasons import evenings_found, formats_of, rule_of
from tournaments.seasons.services.ledger import club_rebuild
from tournaments.seasons.services.seasons import (
    FORMAT_WORDS,
    MOST_SESSIONS,
    competitions_recompute,
)
from tournaments.teams.services.backup import RestoredTournament

COMPUTED = "computed again after a restore"

#: What a backup carries of the seasons' models (`kernel.backup.schema`'s tables).
TABLES: dict[Model, tuple[str, ...]] = {
    Season: (
        "id",
        "name",
        "starts",
        "ends",
        "handicap_basis",
        "handicap_window",
        "handicap_min_sessions",
        "created_by",
        "created_at",
    ),
    Competition: (
        "id",
        "name",
        "kind",
        "count_events",
        "count_drives",
        "count_teams",
        "best_of",
        "min_sessions",
        "ties",
        "handicapped",
        "position",
    ),
    # The evening by its format and its id in the backup (its document's id).
    CompetitionPlay: ("format", "play_id"),
    # The season by its name ("season": null once the season was removed).
    SeasonAudit: (*AUDIT_FIELDS, "season"),
}
IMPLIED_HERE: dict[Model, dict[str, str]] = {
    Season: {"club": "listed under its club"},
    Competition: {"season": "listed under its season"},
    CompetitionPlay: {"competition": "listed under its competition"},
    SeasonAudit: {"club": "listed under its club"},
}
OMITTED_HERE: dict[Model, dict[str, str]] = {
    Competition: {"table": COMPUTED, "computed_at": COMPUTED, "computed_from": COMPUTED},
    CompetitionPlay: {"id": "nothing names a chosen evening by its id"},
}


# ---- writing --------------------------------------------------------------------------------


def _seasons_dump(club: Club) -> list[Any]:
    seasons = list(Season.objects.filter(club=club).order_by("starts", "pk"))
    users = usernames(s.created_by_id for s in seasons)
    competitions: dict[int, list[Competition]] = {s.pk: [] for s in seasons}
    for competition in Competition.objects.filter(season__club=club).order_by("position", "pk"):
        competitions[competition.season_id].append(competition)
    plays: dict[int, list[CompetitionPlay]] = {}
    for play in CompetitionPlay.objects.filter(competition__season__club=club).order_by(
        "competition", "format", "play_id"
    ):
        plays.setdefault(play.competition_id, []).append(play)
    out = []
    for season in seasons:
        block = row(season, Season, users=users)
        block["competitions"] = [
            {
                **row(competition, Competition, users={}),
                "plays": [row(p, CompetitionPlay, users={}) for p in plays.get(competition.pk, [])],
            }
            for competition in competitions[season.pk]
        ]
        out.append(block)
    return out


def _audit_dump(club: Club) -> list[Any]:
    lines = list(SeasonAudit.objects.filter(club=club).order_by("pk"))
    names: dict[Any, Any] = {None: None}
    names.update(Season.objects.filter(club=club).values_list("pk", "name"))
    users = usernames(line.user_id for line in lines)
    return [row(line, SeasonAudit, users=users, keys={Season: names}) for line in lines]


# ---- reading --------------------------------------------------------------------------------


@dataclass
class ParsedCompetition:
    competition: Competition
    plays: list[CompetitionPlay]


@dataclass
class ParsedSeason:
    """A season of a club's block, checked: its row, its competitions, who made it."""

    season: Season
    competitions: list[ParsedCompetition]
    refs: list[UserRef] = field(default_factory=list)


@dataclass
class ParsedAudit:
    line: SeasonAudit
    refs: list[UserRef] = field(default_factory=list)


def _competition_parse(raw: Any, where: str) -> ParsedCompetition:
    data = as_object(raw, where)
    competition: Competition = load_row(
        Competition, data, where, children=["plays"], fmt=BACKUP_FORMAT
    )
    check_names(competition, ("name",), where)
    if not formats_of(competition):
        raise RestoreRefused(
            f"{where} counts no format: count_events, count_drives or count_teams should be true."
        )
    if competition.best_of is not None:
        check_range(competition.best_of, 1, MOST_SESSIONS, where, "best_of")
    check_range(competition.min_sessions, 0, MOST_SESSIONS, where, "min_sessions")
    try:
        rule_of(competition)
    except CompetitionRuleError as exc:
        raise RestoreRefused(f"{where}: {exc}") from None
    plays: list[CompetitionPlay] = []
    counted = formats_of(competition)
    for i, raw_play in enumerate(list_in(data, "plays", where)):
        said = f"{where}, chosen evening {i + 1}"
        play: CompetitionPlay = load_row(CompetitionPlay, raw_play, said, fmt=BACKUP_FORMAT)
        check_range(play.play_id, 1, None, said, "play_id")
        if play.format not in counted:
            raise RestoreRefused(
                f"{said} is a {FORMAT_WORDS[play.format]} evening, which the competition "
                "does not count."
            )
        plays.append(play)
    check_unique(
        (((p.format, p.play_id), f"chosen evening {i + 1}") for i, p in enumerate(plays)),
        "format and id",
        where,
    )
    return ParsedCompetition(competition, plays)


def _season_parse(raw: Any, where: str) -> ParsedSeason:
    data = as_object(raw, where)
    refs: list[UserRef] = []
    season: Season = load_row(
        Season, data, where, users=refs, children=["competitions"], fmt=BACKUP_FORMAT
    )
    check_names(season, ("name",), where)
    where = f"{where} ({season.name!r})"
    if season.ends < season.starts:
        raise RestoreRefused(
            f"{where} ends ({season.ends.isoformat()}) before it starts "
            f"({season.starts.isoformat()})."
        )
    check_range(season.handicap_window, 1, MOST_SESSIONS, where, "handicap_window")
    check_range(season.handicap_min_sessions, 0, MOST_SESSIONS, where, "handicap_min_sessions")
    competitions = [
        _competition_parse(c, f"{where}, competition {i + 1}")
        for i, c in enumerate(list_in(data, "competitions", where))
    ]
    check_unique(
        (
            (p.competition.name.casefold(), f"competition {i + 1} ({p.competition.name!r})")
            for i, p in enumerate(competitions)
        ),
        "name",
        where,
    )
    return ParsedSeason(season, competitions, refs)


class ClubSeasons:
    """The club's seasons, carried in its block of a whole backup (`registry.ClubPart`);
    written once the evenings are in (`seasons_after_restore`)."""

    key = "seasons"

    def check(self, club: Club, where: str) -> None:
        """Nothing of the club itself to check here."""

    def dump(self, club: Club) -> list[Any]:
        return _seasons_dump(club)

    def parse(self, data: dict[str, Any], where: str) -> list[Any]:
        """The block's seasons, checked: each value by the model, names by the one rule and
        once per club (a competition's once per season) whatever their capitals, the dates
        in order, the settings a table can be made of; a block without the key (a backup
        before version 5) has none."""
        raw = data.get(self.key, [])
        if not isinstance(raw, list):
            raise RestoreRefused(f"{where}: {self.key!r} should be a list.")
        seasons = [_season_parse(s, f"{where}, season {i + 1}") for i, s in enumerate(raw)]
        check_unique(
            (
                (p.season.name.casefold(), f"season {i + 1} ({p.season.name!r})")
                for i, p in enumerate(seasons)
            ),
            "name",
            where,
        )
        check_ids_once(
            [
                (Season, [p.season for p in seasons]),
                (Competition, [c.competition for p in seasons for c in p.competitions]),
            ],
            where,
        )
        return seasons

    def write(self, club: Club, rows: list[Any]) -> list[tuple[Model, list[Any]]]:
        """Nothing yet: the seasons are written once the evenings they choose are in."""
        return []


class ClubSeasonAudit:
    """The seasons' trail, carried in a club's block of a whole backup, each line naming its
    season by name (none once the season was removed)."""

    key = "season_audit"

    def check(self, club: Club, where: str) -> None:
        """Nothing of the club itself to check here."""

    def dump(self, club: Club) -> list[Any]:
        return _audit_dump(club)

    def parse(self, data: dict[str, Any], where: str) -> list[Any]:
        """The block's audit lines, checked; each line's season one of the block's seasons
        (the seasons were read before: their names are known good)."""
        raw = data.get(self.key, [])
        if not isinstance(raw, list):
            raise RestoreRefused(f"{where}: {self.key!r} should be a list.")
        # The seasons' names from the block, which `ClubSeasons.parse` has checked; a line
        # names its season by one of them (a stand-in until the seasons are written), or none.
        named = {s["name"] for s in data.get("seasons", [])}
        keyed: dict[Model, Keyed] = {
            Season: Keyed(
                {"": None, **{name: Season(name=name) for name in named}},
                "{label} {key!r} is not one of the club's seasons in the backup",
            )
        }
        lines = []
        for i, item in enumerate(raw):
            said = f"{where}, season audit line {i + 1}"
            item = as_object(item, said)
            if "season" in item and item["season"] is None:
                item = {**item, "season": ""}
            refs: list[UserRef] = []
            line: SeasonAudit = load_row(
                SeasonAudit,
                item,
                said,
                users=refs,
                keyed=keyed,
                fmt=BACKUP_FORMAT,
            )
            lines.append(ParsedAudit(line, refs))
        check_ids_once([(SeasonAudit, [p.line for p in lines])], where)
        return lines

    def write(self, club: Club, rows: list[Any]) -> list[tuple[Model, list[Any]]]:
        """Nothing yet: the trail is written with its seasons."""
        return []


SEASONS = ClubSeasons()
SEASON_AUDIT = ClubSeasonAudit()


# ---- the restore ----------------------------------------------------------------------------


def _evenings_restored(report: RestoreReport) -> dict[tuple[str, int], int]:
    """Each evening the restore wrote, by its format and its id in the backup: its id here."""
    ids: dict[tuple[str, int], int] = {}
    for item in report.restored.get("events", []):
        if isinstance(item, RestoredEvent) and item.original_id is not None:
            ids[("event", item.original_id)] = item.event.pk
    for item in report.restored.get("drives", []):
        if isinstance(item, RestoredDrive) and item.original_id is not None:
            ids[("drive", item.original_id)] = item.drive.pk
    for item in report.restored.get("tournaments", []):
        if isinstance(item, RestoredTournament) and item.original_id is not None:
            ids[("tournament", item.original_id)] = item.tournament.pk
    return ids


def _own_id(model: Model, obj: Any) -> None:
    """The backup's id kept when it is free here, a new one otherwise (as the register's)."""
    if obj.pk is not None and model._default_manager.filter(pk=obj.pk).exists():
        obj.pk = None


def _plays_placed(
    club: Club, parsed: list[ParsedSeason], restored: Mapping[tuple[str, int], int]
) -> list[CompetitionPlay]:
    """Every chosen evening under the id its evening got here; one the backup does not hold,
    or of another club, or outside its season, is refused, naming it."""
    wanted = {
        (p.format, restored[(p.format, p.play_id)])
        for s in parsed
        for c in s.competitions
        for p in c.plays
        if (p.format, p.play_id) in restored
    }
    found = evenings_found(wanted)
    placed = []
    for s in parsed:
        for c in s.competitions:
            where = (
                f"Club {club.name!r}, season {s.season.name!r}, competition {c.competition.name!r}"
            )
            for play in c.plays:
                words = FORMAT_WORDS[play.format]
                new_id = restored.get((play.format, play.play_id))
                if new_id is None:
                    raise RestoreRefused(
                        f"{where}: it chooses the {words} evening {play.play_id}, which the "
                        "backup does not hold. Back up the whole club (`manage.py backup "
                        f"--club {club.slug}`) or the whole installation, or take the evening "
                        "out of the competition before backing up."
                    )
                club_id, date, title = found[(play.format, new_id)]
                if club_id != club.pk:
                    raise RestoreRefused(
                        f"{where}: it chooses the {words} evening {play.play_id} "
                        f"({title!r}), which is another club's in the backup."
                    )
                if not s.season.starts <= date <= s.season.ends:
                    raise RestoreRefused(
                        f"{where}: it chooses the {words} evening {play.play_id} ({title!r}, "
                        f"{date.isoformat()}), which is outside the season's dates."
                    )
                play.competition = c.competition
                play.play_id = new_id
                placed.append(play)
    return placed


def seasons_after_restore(
    *, club: Club, rows: Mapping[str, list[Any]], report: RestoreReport
) -> None:
    """Once a whole backup's evenings are written: the club's seasons, competitions, chosen
    evenings (under the ids their evenings got) and trail; then the club's ledger taken again
    from its published evenings and every competition's table computed again."""
    parsed: list[ParsedSeason] = list(rows.get(SEASONS.key, []))
    trail: list[ParsedAudit] = list(rows.get(SEASON_AUDIT.key, []))
    users = users_named(
        [ref for p in parsed for ref in p.refs] + [ref for a in trail for ref in a.refs]
    )
    seasons = [p.season for p in parsed]
    for p in parsed:
        p.season.club = club
        _own_id(Season, p.season)
        link_users_or_words(p.refs, users)
    insert_rows(Season, seasons)
    competitions = []
    for p in parsed:
        for c in p.competitions:
            c.competition.season = p.season
            _own_id(Competition, c.competition)
            competitions.append(c.competition)
    insert_rows(Competition, competitions)
    plays = _plays_placed(club, parsed, _evenings_restored(report))
    insert_rows(CompetitionPlay, plays)
    by_name = {s.name: s for s in seasons}
    lines = []
    for a in trail:
        a.line.club = club
        # The season was read as a stand-in by its name (`ClubSeasonAudit.parse`).
        stand_in = a.line.season
        a.line.season = None if stand_in is None else by_name[stand_in.name]
        _own_id(SeasonAudit, a.line)
        link_users_or_words(a.refs, users)
        lines.append(a.line)
    insert_rows(SeasonAudit, lines)
    move_sequences_past([(Season, seasons), (Competition, competitions), (SeasonAudit, lines)])
    club_rebuild(club=club)
    competitions_recompute(club_id=club.pk, force=True)
    report.of("seasons").extend(f"{s.name} ({club.slug})" for s in seasons)


def register_seasons() -> None:
    """Tell the backup framework what it holds of the seasons, and what it does with them."""
    FIELDS.update(TABLES)
    IMPLIED.update(IMPLIED_HERE)
    OMITTED.update(OMITTED_HERE)
    # The ledger is taken again from the formats' results: a restore rebuilds it.
    OMITTED_MODELS[SeasonLine] = (
        "the season's ledger is taken from the formats' results, which the backup holds: a "
        "restore takes it again"
    )
    register_backup_club_part(SEASONS)
    register_backup_club_part(SEASON_AUDIT)
    register_after_restore(seasons_after_restore)
    report_order((("seasons", "season(s), their tables computed again"),))
