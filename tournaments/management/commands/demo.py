"""`python manage.py demo`: the demo club, idempotent (run it as often as you like)."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DEMO_USERNAME = "director"
DEMO_PASSWORD = "whist-demo"


class Command(BaseCommand):
    help = "Create (or refresh) the demo club and the demo director login."

    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=DEMO_USERNAME, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        self.stdout.write(f"Demo director login: {DEMO_USERNAME} / {DEMO_PASSWORD}")
