import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_home_page_opens_in_chromium(live_server, page) -> None:
    page.goto(live_server.url + "/")
    assert page.title() == "clubwhist"
    assert page.locator("h1").first.inner_text() == "Results"
    assert page.locator(".brand").inner_text() == "clubwhist"
    page.get_by_role("link", name="Director login").click()
    page.wait_for_url("**/accounts/login/")
    assert page.locator("h1").inner_text() == "Director login"
