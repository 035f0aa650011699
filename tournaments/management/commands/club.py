"""`python manage.py club [--address A] [--port P]`: serve a club night from this laptop.

What `make club` runs. The players' tablets and phones join the venue's Wi-Fi and open the
laptop at its address there, so this command:

1. finds that address (clubwhist/lan.py; `--address` or CLUBWHIST_ADDRESS names it instead),
   and checks the port is free, saying what to do when it is not;
2. switches to the club-laptop settings (DJANGO_ENV=club: no debug pages, the address allowed
   as a host and written into every table link, QR code and printed card; see settings.py);
3. collects the static files (hashed and compressed, served by WhiteNoise);
4. prints the address and a QR code of it, and warns about a demo login whose password is in
   the README (anyone on the Wi-Fi could use it);
5. replaces itself with gunicorn: one ASGI process (clubwhist/server.py) on every interface.
   One process because, with no Redis on the laptop, results processing runs in-process and
   the cache and live-results channels live in that process's memory; ASGI because the
   members following live results each keep a stream open, which there costs no thread, while
   each tablet's request runs in a thread of its own.

Gunicorn needs a Unix-like system (macOS, Linux, or Windows through WSL).
"""

from __future__ import annotations

import errno
import io
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import segno
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError, CommandParser

from clubwhist.lan import is_loopback_host, lan_addresses, url_for
from tournaments.management.commands._oneline import OneLineCommand
from tournaments.management.commands.demo import DEMO_PASSWORD, DEMO_USERNAME

ROOT = Path(settings.BASE_DIR)


def port_free(port: int) -> bool:
    """Can we listen on every interface at this port? (A second clubwhist, or another program.)"""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("0.0.0.0", port))
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                return False
            raise
    return True


class Command(OneLineCommand):
    help = "Serve a club night from this laptop to the tablets on the venue's Wi-Fi."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--address",
            default=os.environ.get("CLUBWHIST_ADDRESS", ""),
            help="the laptop's address on the venue's network (default: found by itself)",
        )
        parser.add_argument(
            "--port",
            type=int,
            default=int(os.environ.get("CLUBWHIST_PORT", "8000")),
            help="the port to serve on (default 8000)",
        )
        parser.add_argument(
            "--check",
            action="store_true",
            help="say which address and port would be used, and stop",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        address = self._address(options["address"].strip())
        port: int = options["port"]
        if not 1 <= port <= 65535:
            raise CommandError(f"--port must be 1 to 65535; got {port}.")
        if not options["check"] and not port_free(port):
            raise CommandError(
                f"Port {port} is already in use: is clubwhist already running (`make run` or "
                f"another `make club`)? Stop it, or choose another port: make club PORT={port + 1}"
            )
        url = url_for(address, port)
        if options["check"]:
            self.stdout.write(url)
            return
        if not get_user_model().objects.exists() and sys.stdin.isatty():
            self.stdout.write("No director login yet: make one now (you log in with it).")
            call_command("createsuperuser")
        env = {
            **os.environ,
            "DJANGO_ENV": "club",
            "CLUBWHIST_ADDRESS": address,
            "CLUBWHIST_PORT": str(port),
        }
        env.pop("DEBUG", None)
        manage = [sys.executable, str(ROOT / "manage.py")]
        collected = subprocess.run(
            [*manage, "collectstatic", "--no-input", "--verbosity", "0"],
            env=env,
            cwd=ROOT,
            check=False,
        )
        if collected.returncode != 0:
            raise CommandError("Collecting the static files failed (see above).")
        self._banner(url)
        sys.stdout.flush()
        sys.stderr.flush()
        server = [
            sys.executable,
            "-m",
            "gunicorn",
            "clubwhist.asgi:application",
            "--bind",
            f"0.0.0.0:{port}",
            "--workers",
            "1",
            "--worker-class",
            "clubwhist.server.Worker",
            "--timeout",
            "120",
            "--graceful-timeout",
            "10",
            "--log-level",
            "warning",
            "--error-logfile",
            "-",
            "--chdir",
            str(ROOT),
        ]
        os.execve(sys.executable, server, env)

    def _address(self, named: str) -> str:
        if named:
            if is_loopback_host(named):
                raise CommandError(
                    f"{named} is this computer's own address: tablets cannot reach it. Leave "
                    "--address out to let clubwhist find the Wi-Fi address, or give that one."
                )
            return named
        found = lan_addresses()
        if not found:
            raise CommandError(
                "This laptop has no network address: join the venue's Wi-Fi (or plug in its "
                "router) and run `make club` again. To name the address yourself: "
                "make club ADDRESS=192.168.1.50"
            )
        if len(found) > 1:
            others = ", ".join(f"{a.address} ({a.interface})" for a in found[1:])
            self.stdout.write(
                f"Using {found[0].address} ({found[0].interface}); also on this laptop: {others}. "
                "If the tablets are on another of these, run make club ADDRESS=<that address>."
            )
        return found[0].address

    def _banner(self, url: str) -> None:
        write = self.stdout.write
        write("")
        write("  clubwhist is serving this club night.")
        write("")
        write(f"  Tablets and phones on the venue's Wi-Fi: {url}/")
        port = url.rsplit(":", 1)[1]
        write(f"  On this laptop:                          http://127.0.0.1:{port}/")
        write("")
        write("  Scan this code with a phone on the Wi-Fi to check it reaches the laptop.")
        write("  Each table's own code is on the event's page and on the printed table cards.")
        write("")
        code = io.StringIO()
        segno.make(f"{url}/", error="m").terminal(out=code, compact=True)
        write(code.getvalue().rstrip("\n"))
        write("")
        self._accounts_warning()
        write("  Stop it with Ctrl-C. Results are kept in var/; back up with manage.py backup.")
        write("")

    def _accounts_warning(self) -> None:
        users = get_user_model().objects
        if not users.exists():
            self.stdout.write(
                "  No director login yet: in another terminal run\n"
                "      .venv/bin/python manage.py createsuperuser\n"
                "  then log in at the address above."
            )
            return
        demo = users.filter(username=DEMO_USERNAME).first()
        if demo is not None and demo.check_password(DEMO_PASSWORD):
            self.stdout.write(
                self.style.WARNING(
                    f"  WARNING: the demo login {DEMO_USERNAME} / {DEMO_PASSWORD} still works, and "
                    "anyone on the Wi-Fi could use it.\n"
                    f"  Change its password: .venv/bin/python manage.py changepassword "
                    f"{DEMO_USERNAME}"
                )
            )
