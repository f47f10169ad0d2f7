"""The chroniclers' desk pages: edit a battle's report in Markdown with a live preview
(htmx, django-htmx), publish or withdraw it. Thin views: access through
``campaign.league.roles.can_edit_reports``, writes through ``battles.reports.desk``.

Anonymous users are sent to log in; anyone who may not edit the report (a player, an
outsider, another campaign's chronicler or organiser) gets a 404, as for anything of a
campaign that is not theirs.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from battles.access import visible_battles
from battles.models import Battle, BattleSide
from battles.reports import desk as desk_services
from battles.reports.context import report_context
from battles.reports.narrative import narrative_for, reader_language
from campaign.core.csp import strip_styles
from campaign.core.markdown import MAX_MARKDOWN_CHARS
from campaign.league.roles import require_chronicler


def _editable_battle(request: HttpRequest, pk: int) -> Battle:
    battle = get_object_or_404(
        visible_battles(request.user)
        .filter(status=Battle.Status.CONCLUDED)
        .select_related("campaign", "winner"),
        pk=pk,
    )
    require_chronicler(request.user, battle.campaign)  # 403 for members, 404 for others
    return battle


def _markdown_field(label) -> forms.CharField:
    return forms.CharField(
        label=label,
        required=False,
        strip=False,
        max_length=MAX_MARKDOWN_CHARS,
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "true"}),
    )


class ReportForm(forms.Form):
    """People's texts of a report: narrative, analysis, and one analysis per side
    (fields ``side_<id>``)."""

    narrative = _markdown_field(gettext_lazy("Narrative (Markdown)"))
    analysis = _markdown_field(gettext_lazy("Analysis (Markdown)"))

    def __init__(self, *args, sides: list[BattleSide], **kwargs):
        super().__init__(*args, **kwargs)
        self.sides = sides
        for side in sides:
            label = _("Tactical analysis: %(side)s") % {"side": side.faction.name}
            field = _markdown_field(label)
            field.widget.attrs["rows"] = 6
            self.fields[f"side_{side.pk}"] = field

    def texts(self) -> dict:
        """The cleaned texts in ``report_context(texts=…)`` shape."""
        data = self.cleaned_data
        return {
            "narrative": data["narrative"],
            "analysis": data["analysis"],
            "sides": {s.pk: data[f"side_{s.pk}"] for s in self.sides},
        }


def _form(battle: Battle, data=None) -> ReportForm:
    sides = list(BattleSide.objects.filter(battle=battle).select_related("faction"))
    # The draft in the chronicler's own language; their own text as they wrote it.
    narrative = narrative_for(battle, reader_language()).text
    initial = {"narrative": narrative, "analysis": battle.analysis}
    initial |= {f"side_{s.pk}": s.analysis for s in sides}
    return ReportForm(data, initial=initial, sides=sides)


def _preview(request: HttpRequest, battle: Battle, texts: dict) -> str:
    """The report as the public will read it once published (user=None), without the
    SSDs' own <style> (no nonce of a swapped-in fragment matches the page's; the page
    links css/ssd.css with the same rules)."""
    context = report_context(battle, user=None, texts=texts)
    # htmx swaps this in: the SSDs' own <style> could carry no valid nonce (css/ssd.css).
    return strip_styles(render_to_string("reports/battle.html", context, request=request))


@login_required
def report_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the report's texts in a form beside its preview. POST: save them
    (``battles.reports.desk.report_edit``); errors (a text too long) are shown on the field,
    nothing saved."""
    battle = _editable_battle(request, pk)
    form = _form(battle, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        texts = form.texts()
        try:
            saved = desk_services.report_edit(
                battle=battle,
                narrative=texts["narrative"],
                analysis=texts["analysis"],
                side_analyses=texts["sides"],
            )
        except desk_services.ReportEditError as exc:
            form.add_error(None, str(exc))
        else:
            if saved.version == battle.version:  # the texts as stored: nothing was done
                messages.info(request, _("The texts are unchanged; nothing was saved."))
            else:
                messages.success(request, _("Report saved."))
            return redirect("report-edit", pk=battle.pk)
    if not form.is_bound:
        texts = {**form.initial, "sides": {s.pk: s.analysis for s in form.sides}}
        preview = _preview(request, battle, texts)
    else:
        preview = _preview(request, battle, form.texts()) if form.is_valid() else None
    return render(
        request,
        "battles/report_edit.html",
        {
            "battle": battle,
            "campaign": battle.campaign,
            "form": form,
            "preview": preview,
            "max_chars": MAX_MARKDOWN_CHARS,
        },
        status=400 if form.is_bound else 200,
    )


@login_required
@require_POST
def report_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The report as it would read with the posted texts (nothing saved): the fragment
    htmx swaps into the preview pane, or the field errors."""
    battle = _editable_battle(request, pk)
    form = _form(battle, request.POST)
    if not form.is_valid():
        return render(request, "battles/_report_preview_errors.html", {"form": form})
    return HttpResponse(_preview(request, battle, form.texts()))


@login_required
@require_POST
def report_publish(request: HttpRequest, pk: int) -> HttpResponse:
    """Publish the report (``battles.reports.desk.report_publish``); back to the battle."""
    battle = _editable_battle(request, pk)
    version = battle.version
    battle = desk_services.report_publish(battle=battle)
    if battle.version == version:
        messages.info(request, _("The report is already published; nothing was done."))
    else:
        messages.success(request, _("Report published: the PDF and the site are being updated."))
    return redirect(battle)


@login_required
@require_POST
def report_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    """Withdraw the published report back to a draft; back to the editor."""
    battle = _editable_battle(request, pk)
    desk_services.report_withdraw(battle=battle)
    messages.success(request, _("Report withdrawn: only chroniclers and organisers see it."))
    return redirect("report-edit", pk=battle.pk)
