"""The team tournament set-up form: the director's choices in plain words, turned into the
engine's settings.

The form only collects; the engine checks (`TournamentSettings`) and its refusal, naming the
setting, is shown above the form. Money is typed as the club counts it ("12.50") and kept in
cents. Defaults follow docs/games/teams.md: Swiss, 5 rounds, games to 7 points (Fosdick).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet

from engine.reading import exact_number, quoted, whole_number
from engine.teams.model import MAX_TEAMS
from engine.teams.ranking import KEYS
from engine.teams.settings import BYE_RULES, PLAYOFF_SIZES, POT_NO_BOSTON, ROTATIONS
from tournaments.kernel.forms import NameField
from tournaments.kernel.models import Club
from tournaments.kernel.numbers import WholeNumberFormField
from tournaments.teams.models import League

GAME_KINDS = [
    ("target", "To a points target (first to 7; or the other side at minus 7)"),
    ("best_of", "Best of a number of hands"),
    ("hands", "A fixed number of hands"),
]
#: The engine's one list of playoff sizes, in the form's words (the API takes the same list).
PLAYOFFS = [
    (size, "No playoff" if size == 0 else "Top 2 (a final)" if size == 2 else f"Top {size}")
    for size in PLAYOFF_SIZES
]
DEFAULT_KEYS = "wins, points, hands, bostons, head_to_head"


def cents(value: Any, what: str) -> int:
    """'12.50' -> 1250; blank -> 0; a ValueError names the field. Read by the engine's rule
    for numbers (plain digits, at most 12 before the point), so "١٢", "NaN", "1e999" or five
    thousand nines are refused by name rather than failing inside `decimal` or `int()`."""
    text = str(value or "").strip().replace(",", "")
    if not text:
        return 0
    amount = exact_number(text)
    if amount is None or "/" in text:
        raise ValueError(f"{what}: an amount such as 12.50, not {quoted(text)}")
    if amount < 0 or (amount * 100).denominator != 1:
        raise ValueError(f"{what}: an amount in whole cents, such as 12.50, not {quoted(text)}")
    return int(amount * 100)


def teams_from_text(text: str) -> list[dict[str, str]]:
    """One team a line: its name, then (optionally) its city and two players, split by
    semicolons ("Aces; Detroit; Ann Lee; Bob Lee"). Reading stops one team past MAX_TEAMS,
    enough for the service to refuse the list: a pasted page of a million lines is never
    made into a million teams first."""
    teams = []
    for line in text.splitlines():
        parts = [p.strip() for p in line.split(";")]
        if not parts[0]:
            continue
        names = ("name", "city", "player_one", "player_two")
        teams.append(dict(zip(names, parts, strict=False)))
        if len(teams) > MAX_TEAMS:
            break
    return teams


class TournamentForm(forms.Form):
    name = NameField(max_length=160)
    date = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    club = forms.ModelChoiceField(queryset=Club.objects.none(), required=False)
    league = forms.ModelChoiceField(
        queryset=League.objects.none(),
        required=False,
        empty_label="Not part of a league",
        help_text="A league's next week: its teams are copied from week 1.",
    )
    new_league = NameField(max_length=160, required=False, label="Or start a league (its name)")
    rotation = forms.ChoiceField(choices=list(ROTATIONS.items()), initial="swiss")
    rounds = WholeNumberFormField(min_value=1, max_value=60, initial=5)
    game_kind = forms.ChoiceField(choices=GAME_KINDS, initial="target", label="A game is played")
    game_value = WholeNumberFormField(
        min_value=1, max_value=99, initial=7, label="Target points, or number of hands"
    )
    scoring = forms.ChoiceField(
        choices=[("fosdick", "Fosdick"), ("andrews", "Andrews")], initial="fosdick"
    )
    defenders_score = forms.BooleanField(
        required=False, label="Andrews: defenders score the bid when they set it"
    )
    boston_double = forms.BooleanField(required=False, label="A Boston counts double")
    sets_lose = WholeNumberFormField(
        min_value=0,
        max_value=9,
        required=False,
        initial=0,
        label="A team set this many times loses the game",
        help_text="0: sets never end a game (such as 2, as some leagues rule).",
    )
    backdoor_points = WholeNumberFormField(
        min_value=0,
        max_value=99,
        required=False,
        label="A back-door win scores",
        help_text="Blank: the points as played (such as 5, as Columbus Whist scores it).",
    )
    bye = forms.ChoiceField(choices=list(BYE_RULES.items()), initial="win", label="A bye scores")
    grace_minutes = WholeNumberFormField(min_value=0, max_value=240, initial=10)
    forfeit_winner = WholeNumberFormField(
        min_value=0, max_value=999, required=False, label="A forfeit: the winner's points"
    )
    forfeit_loser = WholeNumberFormField(
        min_value=0, max_value=999, required=False, initial=0, label="and the loser's"
    )
    keys = forms.CharField(
        initial=DEFAULT_KEYS,
        label="Ranking, in order",
        help_text=f"Any of {', '.join(KEYS)}, separated by commas.",
    )
    fee = forms.CharField(required=False, label="Entry fee per player", initial="0")
    house_percent = WholeNumberFormField(min_value=0, max_value=100, initial=0, required=False)
    prizes = forms.CharField(
        required=False,
        label="Prize split (% for 1st, 2nd, ...)",
        help_text="Such as 50 30 20; blank for no prize money.",
    )
    pot_stake = forms.CharField(required=False, label="Boston pot stake per player", initial="0")
    pot_round = WholeNumberFormField(min_value=1, max_value=60, required=False)
    pot_no_boston = forms.ChoiceField(
        choices=list(POT_NO_BOSTON.items()),
        initial="return",
        required=False,
        label="With no Boston by then",
    )
    playoff = forms.TypedChoiceField(choices=PLAYOFFS, coerce=int, initial=0)
    playoff_third_place = forms.BooleanField(
        required=False, label="A third-place game between the semi-finals' losers"
    )
    playoff_best_of = forms.TypedChoiceField(
        choices=[(1, "One game"), (3, "Best of three"), (5, "Best of five")],
        coerce=int,
        initial=1,
        required=False,  # left out (an older form): one game
        label="Each playoff match",
    )
    tie_games = forms.BooleanField(
        required=False, label="A tie for a place may be played off in one game"
    )
    teams = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text="One team a line: name; city; player one; player two (all but the name "
        "optional). More can be added at the door.",
    )

    def __init__(self, *args: Any, clubs: QuerySet[Club], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs  # type: ignore[attr-defined]
        self.fields["league"].queryset = League.objects.filter(club__in=clubs)  # type: ignore[attr-defined]
        if clubs.count() <= 1:
            self.fields["club"].widget = forms.HiddenInput()

    def settings(self) -> dict[str, Any]:
        """The engine's settings as typed; a ValueError names a money field it cannot read."""
        data = self.cleaned_data
        winner, loser = data.get("forfeit_winner"), data.get("forfeit_loser")
        return {
            "game": {
                "kind": data["game_kind"],
                "value": data["game_value"],
                "scoring": data["scoring"],
                "options": {"defenders_score": True} if data.get("defenders_score") else {},
                "boston_counts_double": bool(data.get("boston_double")),
                "sets_lose": data.get("sets_lose") or 0,
            },
            "rotation": data["rotation"],
            "rounds": data["rounds"],
            "bye": data["bye"],
            "forfeit_points": None if winner is None else [winner, loser or 0],
            "grace_minutes": data["grace_minutes"],
            "keys": [k.strip() for k in data["keys"].replace(";", ",").split(",") if k.strip()],
            "fee_cents": cents(data.get("fee"), "entry fee"),
            "house_percent": data.get("house_percent") or 0,
            "prizes": _prizes(data.get("prizes") or ""),
            "pot_stake_cents": cents(data.get("pot_stake"), "Boston pot stake"),
            "pot_round": data.get("pot_round"),
            "pot_no_boston": data.get("pot_no_boston") or "return",
            "backdoor_points": data.get("backdoor_points"),
            "playoff": data["playoff"],
            "playoff_third_place": bool(data.get("playoff_third_place")),
            "playoff_best_of": data.get("playoff_best_of") or 1,
            "tie_games": bool(data.get("tie_games")),
        }

    def team_list(self) -> list[dict[str, str]]:
        return teams_from_text(self.cleaned_data.get("teams") or "")


def _prizes(text: str) -> list[int]:
    shares = []
    for word in text.replace(",", " ").replace("%", " ").split():
        share = whole_number(word)
        if share is None:
            raise ValueError(f"prize split: whole percentages such as 50 30 20, not {quoted(word)}")
        shares.append(share)
    return shares


def initial_of(settings: dict[str, Any]) -> dict[str, Any]:
    """The form's fields from stored settings, to change a draft's settings in the same form."""
    game = settings.get("game", {})
    forfeit = settings.get("forfeit_points")
    return {
        "rotation": settings.get("rotation"),
        "rounds": settings.get("rounds"),
        "game_kind": game.get("kind", "target"),
        "game_value": game.get("value", 7),
        "scoring": game.get("scoring", "fosdick"),
        "defenders_score": bool(game.get("options", {}).get("defenders_score")),
        "boston_double": bool(game.get("boston_counts_double")),
        "sets_lose": game.get("sets_lose", 0),
        "backdoor_points": settings.get("backdoor_points"),
        "pot_no_boston": settings.get("pot_no_boston", "return"),
        "bye": settings.get("bye"),
        "grace_minutes": settings.get("grace_minutes"),
        "forfeit_winner": None if forfeit is None else forfeit[0],
        "forfeit_loser": 0 if forfeit is None else forfeit[1],
        "keys": ", ".join(settings.get("keys", [])),
        "fee": _money(settings.get("fee_cents", 0)),
        "house_percent": settings.get("house_percent", 0),
        "prizes": " ".join(str(p) for p in settings.get("prizes", [])),
        "pot_stake": _money(settings.get("pot_stake_cents", 0)),
        "pot_round": settings.get("pot_round"),
        "playoff": settings.get("playoff", 0),
        "playoff_third_place": bool(settings.get("playoff_third_place")),
        "playoff_best_of": settings.get("playoff_best_of", 1),
        "tie_games": bool(settings.get("tie_games")),
    }


def _money(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}" if cents else "0"


class SettingsForm(TournamentForm):
    """The set-up form without what a draft keeps (its name, date, club, league, teams)."""

    def __init__(self, *args: Any, clubs: QuerySet[Club], **kwargs: Any) -> None:
        super().__init__(*args, clubs=clubs, **kwargs)
        for name in ("name", "date", "club", "league", "new_league", "teams"):
            del self.fields[name]
