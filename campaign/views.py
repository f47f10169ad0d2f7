"""League pages: thin views that look up, scope and render."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .models import Campaign


def home(request: HttpRequest) -> HttpResponse:
    """The index: campaigns of the league."""
    return render(request, "campaign/home.html", {"campaigns": Campaign.objects.all()})
