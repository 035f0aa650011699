"""Everything that differs between games lives on the game's rules class in `engine/games/`
(and its par in `engine/dd/`); the web app, the diagrams and the engine's commands ask the rules
and never which game this is. Only the board formats (`engine/boards.py`, `engine/pbn.py`),
which say what a board of each game holds, name games too."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

GAMES = ("classic", "bidwhist", "candid", "openwhist")
# A choice made on a game's name: `event.game == "candid"`, `board.variant in (...)`,
# `game != ...`, `if variant == ...`, or a comparison with a game's name literal, in Python or
# in a template (`{% if event.game == "candid" %}`).
BRANCH = re.compile(
    r"""(?<!for )\b(game|variant)\s*(==(?!=)|!=(?!=)|\bnot\s+in\b|\bin\b)"""
    r"""|(==|!=)\s*["'](?:""" + "|".join(GAMES) + r""")["']"""
)
WATCHED = [
    *sorted((ROOT / "tournaments").rglob("*.py")),
    *sorted((ROOT / "templates").rglob("*.html")),
    ROOT / "engine" / "diagrams.py",
    *sorted((ROOT / "engine" / "commands").rglob("*.py")),
]


def branches(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if BRANCH.search(line)]


def test_no_code_outside_the_games_chooses_by_the_games_name() -> None:
    found = {
        str(path.relative_to(ROOT)): hits
        for path in WATCHED
        if "migrations" not in path.parts
        for hits in [branches(path.read_text(encoding="utf-8"))]
        if hits
    }
    assert found == {}, "ask the game's rules instead of its name: " + repr(found)
    assert len(WATCHED) > 40  # the walk really covers the app, the templates and the commands


def test_the_check_would_notice_a_branch() -> None:
    assert branches('        bags = tally(x) if event.game == "candid" else {}')
    assert branches("    if board.variant in ('classic', 'openwhist'):")
    assert branches('{% if event.game == "candid" %}<th>Bags</th>{% endif %}')
    assert branches('    if name == "bidwhist":')
    assert not branches("    rules = rules_for(event)  # the game's rules, with its options")
    assert branches('if (kind === "bidwhist") {')
    assert not branches("    game = forms.ChoiceField(choices=game_choices)")
    # looping over every game, or matching a fieldset to the chosen game, is not a branch
    assert not branches("{% for game in games %}")
    assert not branches("var on = fs.dataset.game === game.value;")
