"""What Pagefind reads of a page (campaign/publish/search.py ``searchable``): the page
without its inline drawings, nested ones included; a page without one is the same object
(hard-linked, not copied)."""

from campaign.publish.search import searchable


def test_drawings_are_left_out_nested_ones_with_them():
    page = b'<p>Hood</p><svg class="ssd"><g><svg><text>Coque</text></svg>x</g></svg><p>lost</p>'
    assert searchable(page) == b"<p>Hood</p><p>lost</p>"
    two = b"a<svg>1</svg>b<svg><svg></svg></svg>c"
    assert searchable(two) == b"abc"


def test_a_page_without_drawings_is_given_back_as_it_is():
    page = b"<main>no drawing here</main>"
    assert searchable(page) is page


def test_an_unclosed_drawing_drops_the_rest():
    assert searchable(b"<p>kept</p><svg><text>broken") == b"<p>kept</p>"
