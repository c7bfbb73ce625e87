"""The deck-check page: a pasted or uploaded .ydk checked under the form, bad input
shown as the form again with its reason, nothing stored."""

import pytest
from test_deck import BLUE_EYES, POT_OF_GREED, forty, ydk

from conftest import EN

pytestmark = pytest.mark.usefixtures("web_client")


def test_the_form_offers_paste_upload_region_and_date(web_client):
    page = web_client.get("/deck")
    assert page.status_code == 200
    for field in ('name="ydk"', 'name="file"', 'name="region"', 'name="on"', 'enctype="multipart/form-data"'):
        assert field in page.text


def test_an_uploaded_deck_with_a_forbidden_card_is_not_legal_and_names_it(web_client):
    deck = ydk(forty(POT_OF_GREED)).encode()
    page = web_client.post(
        "/deck", files={"file": ("mine.ydk", deck, "text/plain")}, data={"region": "ocg"}, headers=EN
    )
    assert page.status_code == 200
    assert "NOT LEGAL" in page.text and f'href="/card/{POT_OF_GREED}"' in page.text
    assert 'href="/p/tournament/129"' in page.text  # the rule it breaks, linked


def test_a_pasted_legal_deck_is_legal_under_the_list_chosen(web_client):
    page = web_client.post(
        "/deck", data={"ydk": ydk(forty(BLUE_EYES)), "region": "ocg", "on": "2024-02-15"}, headers=EN
    )
    assert page.status_code == 200
    assert "✔ LEGAL" in page.text and "OCG list of 2024-01-01" in page.text  # the list in force that day


@pytest.mark.parametrize(
    "data, reason",
    [
        ({"ydk": "hello"}, "before any #main"),
        ({"ydk": ydk(forty(BLUE_EYES)), "region": "atlantis"}, "unknown region"),
        ({"ydk": ydk(forty(BLUE_EYES)), "on": "1999-01-01"}, "no OCG Forbidden"),
    ],
)
def test_bad_input_is_the_form_again_with_the_reason(web_client, data, reason):
    page = web_client.post("/deck", data=data)
    assert page.status_code == 400
    assert reason in page.text and 'name="ydk"' in page.text


def test_a_hostile_body_is_refused_without_reading_it_all(web_client):
    huge = web_client.post(
        "/deck", content=b"x" * 200_000, headers={"content-type": "multipart/form-data; boundary=zz"}
    )
    assert huge.status_code == 413
    broken = web_client.post(
        "/deck", content=b"garbage", headers={"content-type": "multipart/form-data; boundary=zz"}
    )
    assert broken.status_code == 400
    not_a_form = web_client.post("/deck", content=b"{}", headers={"content-type": "application/json"})
    assert not_a_form.status_code == 400
