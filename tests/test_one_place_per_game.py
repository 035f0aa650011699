"""Everything that differs between games lives on the game's rules class in `engine/games/`
(with its board shape) and its par in `engine/dd/`; the web app, the rest of the engine (boards,
PBN, exports, printing, the analysis, the commands) and the scripts of the pages ask the rules
or the shape and never which game this is."""

from __future__ import annotations

import re
from pathlib import Path

from engine.games import variant_names

ROOT = Path(__file__).resolve().parents[1]

GAMES = variant_names()
# A choice made on a game's name: `event.game == "candid"`, `board.variant in (...)`,
# `game != ...`, `if variant == ...`, or a comparison with a game's name literal, in Python or
# in a template (`{% if event.game == "candid" %}`).
BRANCH = re.compile(
    r"""(?<!for )\b(game|variant)\s*(==(?!=)|!=(?!=)|\bnot\s+in\b|\bin\b)"""
    r"""|(==|!=)\s*["'](?:""" + "|".join(GAMES) + r""")["']"""
)
# A game's own modules: its rules (`engine/games/<game>.py`) and its par (`engine/dd/<game>.py`).
OWN = {ROOT / "engine" / folder / f"{game}.py" for game in GAMES for folder in ("games", "dd")}
WATCHED = [
    *sorted((ROOT / "tournaments").rglob("*.py")),
    *sorted((ROOT / "templates").rglob("*.html")),
    *sorted(path for path in (ROOT / "engine").rglob("*.py") if path not in OWN),
    *sorted((ROOT / "static" / "js").glob("*.js")),
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
    watched = set(WATCHED)
    # ... the whole engine but the games' own modules, and the pages' scripts
    assert ROOT / "engine" / "boards.py" in watched
    assert ROOT / "engine" / "dd" / "analysis.py" in watched
    assert ROOT / "engine" / "printing" / "hands.py" in watched
    assert ROOT / "engine" / "games" / "base.py" in watched
    assert ROOT / "engine" / "games" / "candid.py" not in watched
    assert any(path.suffix == ".js" for path in WATCHED)
    assert len(GAMES) >= 4


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
