"""The whole campaign out and back in, from the web (``campaign.exchange``).

- *Download the campaign (JSON)* on the campaign page: its organisers and staff (the
  document holds hidden fleets, secret notes and every side's orders); other members 403,
  anyone else 404, no user: the login page.
- *Import a campaign* (``/campaign-import/``): staff only (an import creates a campaign,
  global factions and user accounts, which no campaign role covers); others 403. A
  refused document lists every bad JSON path; nothing is written.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaign.core.refusals import Refused
from campaign.exchange.export import campaign_export, document_dumps
from campaign.exchange.load import campaign_import, require_importer
from campaign.league.models import Campaign


class ImportForm(forms.Form):
    """The document to import (a JSON file written by an export)."""

    document = forms.FileField(label=gettext_lazy("Campaign document (JSON)"))


def campaign_export_download(request: HttpRequest, slug: str) -> HttpResponse:
    """The campaign as one JSON document, as a file named ``<slug>.json``."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    campaign = get_object_or_404(Campaign, slug=slug)
    text = document_dumps(campaign_export(campaign=campaign, user=request.user))
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{campaign.slug}.json"'
    return response


def campaign_import_page(request: HttpRequest) -> HttpResponse:
    """The import form (GET) and the import (POST): to the new campaign's page, or the
    form again with every refused path listed."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    require_importer(request.user)
    form = ImportForm(request.POST, request.FILES) if request.method == "POST" else ImportForm()
    errors: list[tuple[str, str]] = []
    if request.method == "POST" and form.is_valid():
        try:
            document = json.loads(form.cleaned_data["document"].read().decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            line = getattr(exc, "lineno", None)
            form.add_error(
                "document",
                _("not a JSON file (line %(line)s)") % {"line": line}
                if line
                else _("not a JSON file"),
            )
        else:
            try:
                result = campaign_import(document=document, user=request.user)
            except Refused as exc:
                form.add_error(None, str(exc))
                errors = exc.errors
            else:
                messages.success(
                    request,
                    _("Campaign %(name)s imported.") % {"name": result.campaign.name},
                )
                return redirect("campaign-detail", slug=result.campaign.slug)
    status = 422 if request.method == "POST" else 200
    return render(request, "campaign/import.html", {"form": form, "errors": errors}, status=status)
