"""`python manage.py clubs ...`: clubs and their directors, for the person who runs the server.

    clubs list [--json]                  every club, its slug and its directors
    clubs create NAME [--slug SLUG]      a new club
    clubs add-director SLUG USERNAME     the account directs the club (its events only)
    clubs remove-director SLUG USERNAME

A director sees and changes only their clubs' events; a superuser sees every club's. Accounts
themselves are made with `createsuperuser` or in the admin.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError, CommandParser
from django.db import IntegrityError, transaction
from django.utils.text import slugify

from tournaments.kernel.models import Club
from tournaments.kernel.names import RuleRefused, name_checked
from tournaments.management.commands._oneline import OneLineCommand


class Command(OneLineCommand):
    help = "List and create clubs, and say which accounts direct them."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        listing = sub.add_parser("list", help="every club with its directors")
        listing.add_argument("--json", action="store_true")
        create = sub.add_parser("create", help="a new club")
        create.add_argument("name")
        create.add_argument("--slug", help="the club's short name in addresses")
        for name in ("add-director", "remove-director"):
            change = sub.add_parser(name)
            change.add_argument("club", help="the club's slug")
            change.add_argument("username")

    def handle(self, *args: Any, **options: Any) -> None:
        action = options["action"]
        if action == "list":
            self._list(as_json=options["json"])
        elif action == "create":
            self._create(options["name"], options["slug"])
        else:
            self._change(options["club"], options["username"], add=action == "add-director")

    def _list(self, *, as_json: bool) -> None:
        clubs = [
            {
                "name": club.name,
                "slug": club.slug,
                "directors": sorted(user.get_username() for user in club.directors.all()),
            }
            for club in Club.objects.prefetch_related("directors")
        ]
        if as_json:
            self.stdout.write(json.dumps(clubs, indent=2))
            return
        if not clubs:
            self.stdout.write("No clubs yet: `python manage.py clubs create NAME` makes one.")
        for club in clubs:
            who = ", ".join(club["directors"]) or "no directors yet"
            self.stdout.write(f"{club['slug']}: {club['name']} ({who})")

    def _create(self, name: str, slug: str | None) -> None:
        try:  # the one rule for names, as a club named on the pages or by the API
            name = name_checked(name, model=Club, column="name", what="the club's name")
        except RuleRefused as exc:
            raise CommandError(str(exc)) from None
        slug = slugify(slug or name)[:60]
        if not name or not slug:
            raise CommandError("Give the club a name with at least one letter or digit.")
        try:
            with transaction.atomic():
                Club.objects.create(name=name, slug=slug)
        except IntegrityError:
            raise CommandError(
                f"A club called {name!r} or with the slug {slug!r} exists already."
            ) from None
        self.stdout.write(f"Created {name} ({slug}). Add its directors with add-director.")

    def _change(self, slug: str, username: str, *, add: bool) -> None:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            known = ", ".join(Club.objects.values_list("slug", flat=True)) or "none"
            raise CommandError(f"There is no club {slug!r}. Clubs: {known}.")
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(
                f"There is no account {username!r}: make it first "
                "(`python manage.py createsuperuser`, or in the admin)."
            )
        if add:
            club.directors.add(user)
            self.stdout.write(f"{username} now directs {club.name}.")
        else:
            club.directors.remove(user)
            self.stdout.write(f"{username} no longer directs {club.name}.")
