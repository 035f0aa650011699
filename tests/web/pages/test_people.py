"""A club's people, by email through a real SMTP server: an invitation sent, its link accepted
(with a new account or an existing one), refused once used, withdrawn or out of date; a
co-director removed and the last director kept; a password reset and changed; a club made by
the administrator with its first director invited; the same through the API. Every refusal is
checked to change nothing."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.utils import timezone

from clubwhist.settings import email_from_env
from tests.web.conftest import Mailbox
from tournaments.events.models import Event, Result
from tournaments.kernel import password_reset, people
from tournaments.kernel.models import Club, Invitation, PeopleAudit

pytestmark = pytest.mark.django_db

LINK = re.compile(r"https?://\S+/invitations/[\w-]+/")
STRONG = "whist-trumps-2026!"


def _invite(client: Client, club: Club, email: str) -> Any:
    return client.post(f"/clubs/{club.slug}/people/", {"email": email, "role": "director"})


def _link_in(mail: Any) -> str:
    found = LINK.search(mail.get_content())
    assert found, mail.get_content()
    return found.group(0)


def _logs_in(username: str, password: str, client: Client | None = None) -> bool:
    """Whether the login form takes this name and password (as a person types them)."""
    client = client or Client()
    answer = client.post("/accounts/login/", {"username": username, "password": password})
    return answer.status_code == 302


def _state() -> tuple[Any, ...]:
    """What a refused step must leave as it was."""
    return (
        tuple(Invitation.objects.order_by("pk").values_list("accepted_at", "revoked_at")),
        tuple(PeopleAudit.objects.order_by("pk").values_list("action", "target")),
        tuple(Club.directors.through.objects.order_by("pk").values_list("club_id", "user_id")),
        tuple(Club.scorers.through.objects.order_by("pk").values_list("club_id", "user_id")),
        get_user_model().objects.count(),
    )


def test_an_invitation_by_email_makes_a_new_director(
    smtp_server: Mailbox, club: Club, director: Any, director_client: Client
) -> None:
    page = _invite(director_client, club, "ann@example.org")
    assert page.status_code == 200
    mail = smtp_server.last_to("ann@example.org")
    assert club.name in mail["Subject"]
    link = _link_in(mail)
    assert link in page.content.decode()  # shown on the page too, to pass on by hand
    token = link.rstrip("/").rsplit("/", 1)[1]
    invitation = Invitation.objects.get()
    assert token not in invitation.token_hash and invitation.token_hash == people.token_hash(token)

    newcomer = Client()
    form = newcomer.get(link)
    assert form.status_code == 200
    assert 'value="ann@example.org"' in form.content.decode()  # the email, prefilled
    weak = newcomer.post(
        link,
        {"username": "ann", "email": "ann@example.org", "password1": "ann", "password2": "ann"},
    )
    assert weak.status_code == 400
    assert "too short" in weak.content.decode()
    assert not get_user_model().objects.filter(username="ann").exists()
    joined = newcomer.post(
        link,
        {"username": "ann", "email": "ann@example.org", "password1": STRONG, "password2": STRONG},
    )
    assert joined.status_code == 302 and joined["Location"] == f"/clubs/{club.slug}/people/"
    ann = get_user_model().objects.get(username="ann")
    assert club.directors.filter(pk=ann.pk).exists()
    assert newcomer.get(f"/clubs/{club.slug}/members/").status_code == 200  # signed in, directs
    actions = list(PeopleAudit.objects.order_by("at", "id").values_list("action", flat=True))
    assert actions == ["invite", "accept"]
    assert "ann@example.org" in director_client.get(f"/clubs/{club.slug}/people/").content.decode()

    before = _state()
    again = Client().post(
        link,
        {"username": "ann2", "email": "a@example.org", "password1": STRONG, "password2": STRONG},
    )
    assert again.status_code == 410
    assert "already been used" in again.content.decode()
    assert _state() == before


def test_a_signed_in_account_accepts_and_joins(
    smtp_server: Mailbox, club: Club, director: Any, director_client: Client
) -> None:
    bob = get_user_model().objects.create_user("bob", password=STRONG)
    _invite(director_client, club, "bob@example.org")
    link = _link_in(smtp_server.last_to("bob@example.org"))
    anonymous = Client().get(link).content.decode()
    assert "/accounts/login/?next=/invitations/" in anonymous  # or sign in, then come back
    client = Client()
    assert _logs_in("bob", STRONG, client)
    page = client.get(link)
    assert "You are signed in as <strong>bob</strong>" in page.content.decode()
    assert not club.directors.filter(pk=bob.pk).exists()  # opening the link changes nothing
    assert client.post(link).status_code == 302
    assert club.directors.filter(pk=bob.pk).exists()
    invitation = Invitation.objects.get()
    assert invitation.accepted_by == bob and invitation.accepted_at is not None


def test_an_expired_invitation_is_refused(
    smtp_server: Mailbox,
    club: Club,
    director: Any,
    director_client: Client,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _invite(director_client, club, "late@example.org")
    link = _link_in(smtp_server.last_to("late@example.org"))
    invitation = Invitation.objects.get()
    assert invitation.expires_at - invitation.created_at == timedelta(days=7)
    later = timezone.now() + timedelta(days=7, minutes=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    before = _state()
    client = Client()
    page = client.get(link)
    assert page.status_code == 410
    assert "has expired" in page.content.decode()
    assert "Ask one of the club&#x27;s directors" in page.content.decode()
    post = client.post(
        link,
        {"username": "late", "email": "l@example.org", "password1": STRONG, "password2": STRONG},
    )
    assert post.status_code == 410
    assert _state() == before
    # The People page says it ran out, so the director can invite again.
    people_page = director_client.get(f"/clubs/{club.slug}/people/").content.decode()
    assert "invite again" in people_page


def test_a_revoked_invitation_and_an_unknown_link_are_refused(
    smtp_server: Mailbox, club: Club, director: Any, director_client: Client
) -> None:
    _invite(director_client, club, "cy@example.org")
    link = _link_in(smtp_server.last_to("cy@example.org"))
    invitation = Invitation.objects.get()
    withdrawn = director_client.post(f"/clubs/{club.slug}/invitations/{invitation.pk}/revoke/")
    assert withdrawn.status_code == 302
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None
    assert PeopleAudit.objects.filter(action="revoke").count() == 1
    cy = get_user_model().objects.create_user("cy", password=STRONG)
    before = _state()
    page = Client().get(link)
    assert page.status_code == 410 and "withdrawn" in page.content.decode()
    client = Client()
    client.force_login(cy)
    assert client.post(link).status_code == 410
    assert not club.directors.filter(pk=cy.pk).exists()
    twice = director_client.post(
        f"/clubs/{club.slug}/invitations/{invitation.pk}/revoke/", follow=True
    )
    assert "already revoked" in twice.content.decode()
    unknown = Client().get("/invitations/no-such-invitation-token/")
    assert unknown.status_code == 404 and "not an invitation" in unknown.content.decode()
    assert _state() == before


def test_a_co_director_is_removed_and_the_last_director_stays(
    club: Club, director: Any, director_client: Client
) -> None:
    co = get_user_model().objects.create_user("co", password=STRONG)
    club.directors.add(co)
    gone = director_client.post(f"/clubs/{club.slug}/people/{co.pk}/remove/", follow=True)
    assert "co no longer directs" in gone.content.decode()
    assert list(club.directors.all()) == [director]
    line = PeopleAudit.objects.get(action="remove")
    assert line.user == director and line.before["username"] == "co"
    co_client = Client()
    co_client.force_login(co)
    assert co_client.get(f"/clubs/{club.slug}/people/").status_code == 404  # no longer theirs

    before = _state()
    last = director_client.post(f"/clubs/{club.slug}/people/{director.pk}/remove/", follow=True)
    assert "the last director" in last.content.decode()
    assert "Invite another director first" in last.content.decode()
    assert _state() == before
    api = director_client.delete(f"/api/clubs/{club.slug}/people/{director.pk}/")
    assert api.status_code == 409 and "last director" in api.json()["detail"]
    assert _state() == before


def test_a_password_reset_by_email(smtp_server: Mailbox, club: Club, director: Any) -> None:
    director.email = "td@example.org"
    director.save()
    login_page = Client().get("/accounts/login/").content.decode()
    assert (
        'href="/accounts/password/reset/"' in login_page and "Forgot your password?" in login_page
    )
    client = Client()
    sent = client.post("/accounts/password/reset/", {"email": "td@example.org"})
    assert sent.status_code == 302 and sent["Location"] == "/accounts/password/reset/sent/"
    body = smtp_server.last_to("td@example.org").get_content()
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+/)", body)
    assert link, body
    opened = client.get(link.group(1), follow=True)
    assert "Choose a new password" in opened.content.decode()
    form_url = opened.redirect_chain[-1][0]
    mismatch = client.post(form_url, {"new_password1": STRONG, "new_password2": STRONG + "x"})
    assert mismatch.status_code == 200 and "There is a problem" in mismatch.content.decode()
    done = client.post(form_url, {"new_password1": STRONG, "new_password2": STRONG})
    assert done.status_code == 302 and done["Location"] == "/accounts/password/reset/done/"
    assert _logs_in("td", STRONG)
    assert not _logs_in("td", "pw-for-tests")
    reused = Client().get(link.group(1), follow=True).content.decode()
    assert "This link no longer works" in reused
    # An address without an account sends nothing, and says the same as for one with.
    count = len(smtp_server.received)
    assert client.post("/accounts/password/reset/", {"email": "nobody@example.org"}).status_code
    assert len(smtp_server.received) == count


def test_password_resets_are_limited_by_address_and_by_network(
    smtp_server: Mailbox, director: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three emails an hour to one address (with an account or not: the answer says nothing
    about which), twenty requests an hour from one network; over a limit nothing is sent and
    the page says which limit and what to do. The counts are in the shared cache, so every
    web node of an installation counts together."""
    director.email = "td@example.org"
    director.save()
    client = Client()

    def ask(email: str, client: Client = client) -> Any:
        return client.post("/accounts/password/reset/", {"email": email})

    for _ in range(password_reset.RESET_PER_EMAIL):
        assert ask("TD@example.org").status_code == 302
    assert len(smtp_server.received) == password_reset.RESET_PER_EMAIL
    refused = ask("td@example.org")
    page = refused.content.decode()
    assert refused.status_code == 200
    assert "3 emails have gone to this address in the last hour" in page
    assert "spam folder" in page
    assert len(smtp_server.received) == password_reset.RESET_PER_EMAIL  # nothing more sent
    # an address without an account is limited alike (it is no tell)
    for _ in range(password_reset.RESET_PER_EMAIL):
        assert ask("nobody@example.org").status_code == 302
    assert "3 emails have gone" in ask("nobody@example.org").content.decode()
    # a mistake counts nothing
    assert ask("not an address").status_code == 200
    # one network: twenty requests an hour, whatever the addresses
    monkeypatch.setattr(password_reset, "RESET_PER_CLIENT", 8)
    other = Client(REMOTE_ADDR="192.0.2.44")
    for n in range(8):
        assert ask(f"person{n}@example.org", other).status_code == 302
    over = ask("person9@example.org", other).content.decode()
    assert "8 password resets have been asked for from your network" in over
    # another network is under its own limit, and the director's own address still waits
    assert ask("person10@example.org", Client(REMOTE_ADDR="192.0.2.45")).status_code == 302
    assert (
        "3 emails have gone"
        in ask("td@example.org", Client(REMOTE_ADDR="192.0.2.46")).content.decode()
    )


def test_a_password_change(club: Club, director: Any, director_client: Client) -> None:
    home = director_client.get("/").content.decode()
    assert 'href="/accounts/password/change/"' in home
    wrong = director_client.post(
        "/accounts/password/change/",
        {"old_password": "not-it", "new_password1": STRONG, "new_password2": STRONG},
    )
    assert wrong.status_code == 200 and "There is a problem" in wrong.content.decode()
    changed = director_client.post(
        "/accounts/password/change/",
        {"old_password": "pw-for-tests", "new_password1": STRONG, "new_password2": STRONG},
    )
    assert changed["Location"] == "/accounts/password/change/done/"
    assert director_client.get("/accounts/password/change/done/").status_code == 200  # still in
    assert _logs_in("td", STRONG)
    assert Client().get("/accounts/password/change/")["Location"].startswith("/accounts/login/")


def test_the_administrator_makes_a_club_and_invites_its_first_director(
    smtp_server: Mailbox, club: Club, director: Any, director_client: Client
) -> None:
    refused = director_client.post("/clubs/new/", {"name": "Hilltop", "email": "h@example.org"})
    assert refused.status_code == 403 and "administrator" in refused.content.decode()
    assert not Club.objects.filter(name="Hilltop").exists() and not smtp_server.received
    admin = get_user_model().objects.create_user("root", password=STRONG, is_superuser=True)
    client = Client()
    client.force_login(admin)
    assert 'href="/clubs/new/"' in client.get("/").content.decode()
    same = client.post("/clubs/new/", {"name": club.name, "email": "h@example.org"})
    assert same.status_code == 400 and "already exists" in same.content.decode()
    made = client.post("/clubs/new/", {"name": "Hilltop", "email": "h@example.org"})
    assert made.status_code == 200
    hilltop = Club.objects.get(name="Hilltop")
    link = _link_in(smtp_server.last_to("h@example.org"))
    assert link in made.content.decode()
    newcomer = Client()
    newcomer.post(
        link,
        {"username": "hilda", "email": "h@example.org", "password1": STRONG, "password2": STRONG},
    )
    assert [u.username for u in hilltop.directors.all()] == ["hilda"]
    assert newcomer.get(f"/clubs/{hilltop.slug}/people/").status_code == 200
    assert newcomer.get(f"/clubs/{club.slug}/people/").status_code == 404


def test_a_mail_server_that_does_not_answer_leaves_the_link_on_the_page(
    settings: Any, club: Club, director: Any, director_client: Client
) -> None:
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", port, 2
    page = _invite(director_client, club, "dee@example.org").content.decode()
    assert "could not be sent: pass the link on yourself" in page
    assert LINK.search(page.replace("&#x27;", "'"))
    assert Invitation.objects.get().email == "dee@example.org"


def test_the_api_lists_invites_withdraws_and_removes(
    smtp_server: Mailbox, club: Club, director: Any, director_client: Client
) -> None:
    api = f"/api/clubs/{club.slug}/people/"
    bad = director_client.post(api, {"email": "not an address"}, content_type="application/json")
    assert bad.status_code == 400 and "not an email address" in bad.json()["detail"]
    sent = director_client.post(api, {"email": "eve@example.org"}, content_type="application/json")
    assert sent.status_code == 201, sent.json()
    assert sent.json()["link"] == _link_in(smtp_server.last_to("eve@example.org"))
    assert sent.json()["emailed"] is True
    listing = director_client.get(api).json()
    assert [p["username"] for p in listing["people"]] == ["td"]
    assert [i["email"] for i in listing["invitations"]] == ["eve@example.org"]
    assert [line["action"] for line in listing["trail"]] == ["invite"]
    invitation_id = sent.json()["invitation"]["id"]
    gone = director_client.delete(f"/api/clubs/{club.slug}/invitations/{invitation_id}/")
    assert gone.status_code == 200
    again = director_client.delete(f"/api/clubs/{club.slug}/invitations/{invitation_id}/")
    assert again.status_code == 409 and "already revoked" in again.json()["detail"]
    co = get_user_model().objects.create_user("co", password=STRONG)
    club.directors.add(co)
    removed = director_client.delete(f"/api/clubs/{club.slug}/people/{co.pk}/")
    assert removed.status_code == 200 and removed.json()["username"] == "co"
    missing = director_client.delete(f"/api/clubs/{club.slug}/people/{co.pk}/")
    assert missing.status_code == 404
    other = Client()
    other.force_login(co)  # no longer a director: the club's people are not theirs to read
    assert other.get(api).status_code == 404
    assert Client().get(api).status_code == 403


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"EMAIL_HOST": "smtp.example.org", "EMAIL_PORT": "x"}, "EMAIL_PORT"),
        ({"EMAIL_HOST": "smtp.example.org", "EMAIL_PORT": "70000"}, "EMAIL_PORT"),
        ({"EMAIL_HOST": "smtp://smtp.example.org"}, "EMAIL_HOST"),
        ({"EMAIL_HOST": "h", "EMAIL_USE_TLS": "1", "EMAIL_USE_SSL": "1"}, "EMAIL_USE_SSL"),
        ({"EMAIL_HOST": "h", "EMAIL_USE_TLS": "maybe"}, "EMAIL_USE_TLS"),
        ({"EMAIL_HOST": "h", "EMAIL_HOST_USER": "u"}, "EMAIL_HOST_PASSWORD"),
        ({"DEFAULT_FROM_EMAIL": "nobody"}, "DEFAULT_FROM_EMAIL"),
    ],
)
def test_bad_email_settings_stop_the_start(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], words: str
) -> None:
    for name in ("EMAIL_HOST", "EMAIL_PORT", "EMAIL_USE_TLS", "EMAIL_USE_SSL", "EMAIL_HOST_USER"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ImproperlyConfigured, match=words):
        email_from_env()


def test_email_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "EMAIL_HOST",
        "EMAIL_PORT",
        "EMAIL_USE_TLS",
        "EMAIL_USE_SSL",
        "DEFAULT_FROM_EMAIL",
    ):
        monkeypatch.delenv(name, raising=False)
    assert email_from_env()["EMAIL_BACKEND"].endswith("console.EmailBackend")
    monkeypatch.setenv("EMAIL_HOST", "smtp.example.org")
    monkeypatch.setenv("EMAIL_USE_TLS", "1")
    monkeypatch.setenv("EMAIL_HOST_USER", "club")
    monkeypatch.setenv("EMAIL_HOST_PASSWORD", "secret")
    monkeypatch.setenv("DEFAULT_FROM_EMAIL", "Club <club@example.org>")
    found = email_from_env()
    assert found["EMAIL_BACKEND"].endswith("smtp.EmailBackend")
    assert (found["EMAIL_PORT"], found["EMAIL_USE_TLS"], found["EMAIL_USE_SSL"]) == (
        587,
        True,
        False,
    )
    assert found["DEFAULT_FROM_EMAIL"] == "Club <club@example.org>"


def test_a_scorer_is_invited_enters_results_and_changes_nothing_else(
    smtp_server: Mailbox, club: Club, director: Any, director_client: Client, running_event: Event
) -> None:
    page = director_client.post(
        f"/clubs/{club.slug}/people/", {"email": "sam@example.org", "role": "scorer"}
    )
    assert page.status_code == 200
    mail = smtp_server.last_to("sam@example.org")
    assert "to be a scorer of" in mail.get_content()
    scorer = Client()
    joined = scorer.post(
        _link_in(mail),
        {"username": "sam", "email": "sam@example.org", "password1": STRONG, "password2": STRONG},
    )
    assert joined["Location"] == "/"
    sam = get_user_model().objects.get(username="sam")
    assert club.scorers.filter(pk=sam.pk).exists() and not club.directors.filter(pk=sam.pk).exists()
    home = scorer.get("/").content.decode()
    assert "Results to enter" in home and f"/events/{running_event.pk}/enter/" in home

    entered = scorer.post(
        f"/api/events/{running_event.pk}/results",
        {"round": 1, "table": 1, "board": 1, "entry": {"ns_tricks": 7}},
        content_type="application/json",
    )
    assert entered.status_code == 201, entered.json()
    result = Result.objects.get()
    assert result.entry == {"ns_tricks": 7}
    corrected = scorer.post(
        f"/api/events/{running_event.pk}/results/{result.pk}/correct",
        {"entry": {"ns_tricks": 8}, "reason": "the traveller said 8"},
        content_type="application/json",
    )
    assert corrected.status_code == 200, corrected.json()
    assert scorer.get(f"/events/{running_event.pk}/boards/1/").status_code == 200

    before = (Event.objects.get(pk=running_event.pk).status, _state())
    finish = scorer.post(f"/events/{running_event.pk}/status/finish/")
    assert finish.status_code == 403 and "only its directors may do this" in finish.content.decode()
    assert scorer.get(f"/clubs/{club.slug}/people/").status_code == 403
    invite = scorer.post(f"/api/clubs/{club.slug}/people/", {"email": "x@example.org"})
    assert invite.status_code == 403
    assert (Event.objects.get(pk=running_event.pk).status, _state()) == before

    listed = director_client.get(f"/api/clubs/{club.slug}/people/").json()["people"]
    assert [(p["username"], p["role"]) for p in listed] == [("td", "director"), ("sam", "scorer")]
    removed = director_client.post(f"/clubs/{club.slug}/people/{sam.pk}/remove/", follow=True)
    assert "sam no longer scores for" in removed.content.decode()
    assert not club.scorers.filter(pk=sam.pk).exists()
    assert scorer.get(f"/events/{running_event.pk}/enter/").status_code == 404
    assert PeopleAudit.objects.get(action="remove").before == {"username": "sam", "role": "scorer"}


def test_a_scorer_invited_to_direct_moves_up(
    smtp_server: Mailbox, club: Club, director: Any, director_client: Client
) -> None:
    sam = get_user_model().objects.create_user("sam", password=STRONG)
    club.scorers.add(sam)
    _invite(director_client, club, "sam@example.org")
    client = Client()
    client.force_login(sam)
    assert client.post(_link_in(smtp_server.last_to("sam@example.org"))).status_code == 302
    assert club.directors.filter(pk=sam.pk).exists() and not club.scorers.filter(pk=sam.pk).exists()
