"""The director's login form: a refused login is said once, in a live region, and tied to
both fields (WCAG 3.3.1 and 4.1.3), so a screen reader announces it and names it on each."""

from __future__ import annotations

from django.contrib.auth.forms import AuthenticationForm

#: The id of the login page's error message (templates/registration/login.html).
ERROR_ID = "login-error"


class LoginForm(AuthenticationForm):
    def full_clean(self) -> None:
        super().full_clean()
        if self.errors:
            for name in ("username", "password"):
                self.fields[name].widget.attrs.update(
                    {"aria-invalid": "true", "aria-describedby": ERROR_ID}
                )
