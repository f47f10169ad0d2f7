"""The league login lands somewhere real; the API docs work without the internet."""

from django.urls import reverse


def test_login_without_next_redirects_home(client, cast):
    response = client.post(reverse("login"), {"username": "outsider", "password": "pw-12345!"})
    assert response.status_code == 302
    assert response["Location"] == reverse("home")


def test_login_page_does_not_link_to_itself_with_nested_next(client):
    response = client.get(reverse("login") + "?next=/fleets/x/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<input type="hidden" name="next" value="/fleets/x/">' in html  # the login form's
    assert "?next=%2Flogin%2F" not in html and "next=/login/" not in html


def test_api_docs_use_local_swagger_assets(client):
    html = client.get("/api/docs").content.decode()
    assert "cdn.jsdelivr.net" not in html
    assert "/static/ninja/swagger-ui" in html
