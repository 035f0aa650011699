"""A team tournament's paper read back with pypdf: the team list, the tables, score sheets and
the bracket, for a small room (6 teams) and a big one (41 teams, a bye every round), on A4 and
US Letter.

The expected text is written here from the tournament, not from engine.printing: every team
with its number, city and players on the list; each table's home team before its away team;
a score sheet per table with the game's rule; each match's teams or "winner of match N".
"""

from __future__ import annotations

import doctest
import re
from io import BytesIO

import pytest
from pypdf import PdfReader

import engine.printing.teams
from engine.printing import PrintError
from engine.printing.teams import (
    HAND_ROWS,
    RoundLines,
    TableLine,
    TeamLine,
    bracket_pdf,
    round_tables_pdf,
    score_sheets_pdf,
    team_list_pdf,
)
from engine.printing.toolkit import PAPERS
from engine.teams import Bracket, Team, TeamTournament, TournamentSettings

TITLE = "Spring Bid Whist"
DATE = "11 April 2026"
RULE = "first team to 7 points, or the other team driven to -7"
CITIES = ["Detroit", "Chicago", "Atlanta", "Memphis", "Zürich"]
NAMES = ["Aces", "Kings", "Queens", "Jacks", "Jokers", "Books", "Zoë & Åsa's Uptown Crew"]
LONG = "The Boston Tea Party of Greater Detroit and Ypsilanti"
SIZES = [6, 41]


def team(number: int) -> TeamLine:
    name = LONG if number == 7 else f"{NAMES[(number - 1) % len(NAMES)]} {number}"
    return TeamLine(
        number,
        name,
        CITIES[number % len(CITIES)],
        (f"Ann Player{number}", f"Bob Player{number}"),
        here=number % 3 == 0,
        paid=number % 4 == 0,
    )


def teams(count: int) -> list[TeamLine]:
    return [team(n) for n in range(1, count + 1)]


def schedule(count: int, rounds: int = 3) -> list[RoundLines]:
    """A round robin's first rounds, from the engine: an odd room has a bye every round."""
    lines = {t.number: t for t in teams(count)}
    settings = TournamentSettings(rotation="round_robin", rounds=rounds)
    drawn = TeamTournament(settings, [Team(n) for n in lines]).schedule(seed=3)
    return [
        RoundLines(
            r.number,
            tuple(TableLine(p.table, lines[p.home], lines[p.away]) for p in r.tables),
            tuple(lines[b] for b in r.byes),
        )
        for r in drawn
    ]


def pages(pdf: bytes) -> list[str]:
    return [flat(page.extract_text()) for page in PdfReader(BytesIO(pdf)).pages]


def flat(text: str) -> str:
    """Whitespace as single spaces: a name wrapped onto two lines reads as one."""
    return re.sub(r"\s+", " ", text)


def sizes(pdf: bytes) -> set[tuple[int, int]]:
    return {
        (round(float(page.mediabox.width)), round(float(page.mediabox.height)))
        for page in PdfReader(BytesIO(pdf)).pages
    }


def paper_of(paper: str, *, landscape: bool = False) -> tuple[int, int]:
    width, height = (round(side) for side in PAPERS[paper])
    return (height, width) if landscape else (width, height)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("count", SIZES)
def test_the_team_list_has_every_team_its_boxes_and_the_count(count: int, paper: str) -> None:
    listed = teams(count)
    pdf = team_list_pdf(TITLE, DATE, list(reversed(listed)), paper=paper)
    text = " ".join(pages(pdf))
    assert sizes(pdf) == {paper_of(paper)}
    assert TITLE in text and DATE in text and f"{count} teams · {2 * count} players" in text
    for line in listed:
        # In number order, each with its city and both players.
        assert re.search(rf"\b{line.number} {re.escape(line.name)} {line.city} ", text), line
        assert f"Ann Player{line.number} & Bob Player{line.number}" in text
    named = r"(\d+) (?:Aces|Kings|Queens|Jacks|Jokers|Books|Zoë|The Boston)"
    assert [int(n) for n in re.findall(named, text)] == list(range(1, count + 1))
    here = sum(1 for line in listed if line.here)
    paid = sum(1 for line in listed if line.paid)
    assert f"Here: {here} of {count}. Paid: {paid} of {count}." in text
    assert "Here" in text and "Paid" in text
    assert text.count("☑") == here + paid and text.count("☐") == 2 * count - here - paid


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("count", SIZES)
def test_the_tables_give_each_round_its_pages_home_team_first(count: int, paper: str) -> None:
    rounds = schedule(count)
    pdf = round_tables_pdf(TITLE, DATE, rounds, 5, paper=paper)
    texts = pages(pdf)
    assert sizes(pdf) == {paper_of(paper)}
    by_round: dict[int, str] = {}
    for text in texts:
        found = re.search(r"Round (\d+) of 5", text)
        assert found, text[:60]
        by_round[int(found.group(1))] = by_round.get(int(found.group(1)), "") + " " + text
    # A round to a page: a room of 20 tables may take two, never a page shared by two rounds.
    assert sorted(by_round) == [1, 2, 3]
    assert len(texts) <= 3 * (1 if count < 20 else 2)
    for round_ in rounds:
        text = by_round[round_.number]
        assert "North-South (home)" in text and "East-West (away)" in text
        for table in round_.tables:
            row = text.split(f"Table {table.table} ", 1)[1]
            home, away = row.find(table.home.name), row.find(table.away.name)
            assert 0 <= home < row.find(" v ") < away, (table, row[:200])
            assert f"team {table.home.number} · {table.home.city}" in row
        for bye in round_.byes:
            assert f"Bye: {bye.name} (team {bye.number} · {bye.city})" in text
        assert bool(round_.byes) == (count % 2 == 1)


def test_one_round_prints_on_its_own_and_a_table_number_is_large() -> None:
    only = schedule(6)[1]
    text = " ".join(pages(round_tables_pdf(TITLE, None, [only], 0)))
    assert "Round 2 " in text and "Round 2 of" not in text
    assert all(f"Table {t.table}" in text for t in only.tables)
    with pytest.raises(PrintError, match="at least one round"):
        round_tables_pdf(TITLE, None, [], 5)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("count", SIZES)
def test_a_score_sheet_per_table_with_the_rule_hands_and_signatures(count: int, paper: str) -> None:
    tables = schedule(count)[0].tables
    pdf = score_sheets_pdf(TITLE, DATE, 1, tables, RULE, paper=paper)
    texts = pages(pdf)
    assert sizes(pdf) == {paper_of(paper)}
    assert len(texts) == len(tables) == count // 2
    for table, text in zip(sorted(tables, key=lambda t: t.table), texts, strict=True):
        assert f"Score sheet · Round 1 · Table {table.table} " in text
        assert text.index(table.home.name) < text.index(table.away.name)
        assert f"North-South (home): {table.home.name}" in text
        assert f"East-West (away): {table.away.name}" in text
        assert f"Game: {RULE}." in text
        for heading in ("Hand", "Declarer", "Bid", "Trumps", "Books", "Running total"):
            assert heading in text
        assert "Uptown / downtown / no trump" in text and text.count("U D NT") == HAND_ROWS
        assert text.count("N E S W") == HAND_ROWS and text.count("♠ ♥ ♦ ♣") == HAND_ROWS
        assert re.search(r"\b16 N E S W", text) and not re.search(r"\b17 N E S W", text)
        for words in ("Final score", "Hands won", "Bostons", "Winner:"):
            assert words in text
        assert "We agree that this sheet is the game as played." in text
        assert f"For {table.home.name} (North-South), signed:" in text
        assert f"For {table.away.name} (East-West), signed:" in text


def test_a_long_game_gets_more_rows_and_a_bad_request_is_refused() -> None:
    tables = schedule(6)[0].tables[:1]
    text = pages(score_sheets_pdf(TITLE, None, 2, tables, "30 hands", rows=32))[0]
    assert "Game: 30 hands." in text and re.search(r"\b32 N E S W", text)
    with pytest.raises(PrintError, match="at least one table"):
        score_sheets_pdf(TITLE, None, 1, [], RULE)
    with pytest.raises(PrintError, match="unknown paper"):
        score_sheets_pdf(TITLE, None, 1, tables, RULE, paper="a5")


def played(bracket: Bracket, matches: int) -> Bracket:
    """The first `matches` ready matches won by the lower seed (the away side)."""
    for _ in range(matches):
        match = bracket.next_matches()[0]
        assert match.teams is not None
        bracket = bracket.record(match.id, match.teams[1])
    return bracket


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("count", SIZES)
def test_the_bracket_is_a_tree_of_teams_and_winners_of_matches(count: int, paper: str) -> None:
    size = min(count, 24)  # a playoff of the best teams: 6 of 6, 24 of 41
    names = {t.number: t.name for t in teams(count)}
    bracket = played(Bracket.seeded(range(size, 0, -1), third_place=True), 2)
    pdf = bracket_pdf(TITLE, DATE, bracket.rounds, names, seeds=bracket.seeds, paper=paper)
    texts = pages(pdf)
    assert sizes(pdf) == {paper_of(paper, landscape=True)} and len(texts) == 1
    text = texts[0]
    assert f"Playoff: {TITLE}" in text and f"{size} teams" in text
    for round_ in bracket.rounds:
        assert round_.name in text
        for match in round_.matches:
            for slot, team in ((match.home, match.home_team), (match.away, match.away_team)):
                if team is None:
                    assert f"{'loser' if slot.loser else 'winner'} of match {slot.source}" in text
                else:
                    seed = bracket.seeds.index(team) + 1
                    assert f"({seed}) {names[team]}" in text
    assert "Champion" in text and "Third place" in text and "✓" in text
    waiting = [
        slot
        for m in bracket.matches
        for slot, team in ((m.home, m.home_team), (m.away, m.away_team))
        if team is None and not slot.loser
    ]
    assert waiting and text.count("winner of match") == len(waiting)


def test_a_finished_bracket_names_its_champion_and_a_big_one_takes_two_pages() -> None:
    names = {n: f"Team name {n}" for n in range(1, 65)}
    small = played(Bracket.seeded([5, 2, 9]), 2)
    text = pages(bracket_pdf(TITLE, None, small.rounds, names))[0]
    assert small.champion is not None and "winner of match" not in text
    assert text.count(names[small.champion]) == 3  # the semi-final, the final, the champion
    assert "(bye)" in text and "1 bye(s)" in text
    big = Bracket.seeded(list(range(1, 65)))
    halves = pages(bracket_pdf(TITLE, None, big.rounds, names, seeds=big.seeds))
    assert len(halves) == 2 and "top half" in halves[0] and "bottom half" in halves[1]
    final = big.final
    assert all(f"winner of match {final.home.source}" in h for h in halves)
    assert all(f"winner of match {final.away.source}" in h for h in halves)
    assert "(1) Team name 1" in halves[0] and "(2) Team name 2" in halves[1]
    with pytest.raises(PrintError, match="the final last"):
        bracket_pdf(TITLE, None, [], names)


def test_the_same_tournament_prints_the_same_bytes_and_names_are_checked() -> None:
    rounds = schedule(6)
    assert round_tables_pdf(TITLE, DATE, rounds, 5) == round_tables_pdf(TITLE, DATE, rounds, 5)
    with pytest.raises(PrintError, match="team 2 is listed twice"):
        team_list_pdf(TITLE, DATE, [team(1), team(2), team(2)])
    unnamed = TeamLine(3, "  ")
    assert "Team 3" in pages(team_list_pdf(TITLE, DATE, [unnamed]))[0]


def test_docstring_examples_hold() -> None:
    result = doctest.testmod(engine.printing.teams)
    assert result.attempted > 0 and result.failed == 0
