"""The password-reset request page: Django's ``PasswordResetView`` with the league's
templates, limited per address and per client so that it cannot be used to flood a
mailbox (``campaign.core.throttle``)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import HttpResponse
from django.utils.translation import gettext as _

from campaign.core.throttle import allow

__all__ = ["ThrottledPasswordReset"]

#: The window of both limits, in seconds.
WINDOW = 3600


class ThrottledPasswordReset(auth_views.PasswordResetView):
    """At most ``settings.PASSWORD_RESET_PER_ADDRESS`` requests per address and
    ``settings.PASSWORD_RESET_PER_IP`` per client address each hour; beyond, the form
    again with a 429 and a message, and no e-mail. Counted whether or not an account has
    the address, and answered alike, so the limit reveals no account."""

    template_name = "registration/password_reset_form.html"
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"

    def form_valid(self, form) -> HttpResponse:  # type: ignore[no-untyped-def]
        address = form.cleaned_data["email"].strip().lower()
        client = self.request.META.get("REMOTE_ADDR") or "unknown"
        by_address = allow(
            "password-reset-address",
            address,
            limit=settings.PASSWORD_RESET_PER_ADDRESS,
            window=WINDOW,
        )
        by_client = allow(
            "password-reset-ip", client, limit=settings.PASSWORD_RESET_PER_IP, window=WINDOW
        )
        if by_address and by_client:
            return super().form_valid(form)
        form.add_error(None, _("Too many requests for a new password: try again in an hour."))
        response = self.form_invalid(form)
        response.status_code = 429
        return response
