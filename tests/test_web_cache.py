"""The site over HTTP as a phone at an event meets it: compressed, cached,
revalidated; the API readable from another site and described answer by answer."""

from __future__ import annotations

import gzip
import re
from urllib.parse import quote

import jsonschema
import pytest

from tests.conftest import KB, SMALL

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")

PAGE = "/ask?q=" + quote("cost算不算卡片的效果")
API = "/api/search?q=cost&limit=3"
# Every GET endpoint with an answer, and the schema (views/schemas.py) it must fit.
ANSWERS = {
    "/api/search?q=cost&limit=3": "Search",
    "/api/search?q=" + quote("卡时点") + "&kind=ruling": "Search",
    "/api/ask?q=" + quote("cost算不算卡片的效果"): "Answer",
    "/api/card?q=qybl": "Card",
    "/api/card?q=" + quote("青眼"): "Card",
    "/api/section/4.2.2": "Section",
    "/api/section/rulings/cost": "Section",
    "/api/concept/cost": "Concept",
    "/api/p/4.2.2/4": "Passage",
    "/api/p/rulings/cost/1": "Passage",
    "/api/scenario/atk_rush_then_gale": "Scenario",
    "/api/p/no/such/passage": "Error",
    "/api/card?q=": "Error",
}


# --- compression ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [PAGE, API])
def test_pages_and_answers_are_gzipped_when_asked(web_client, path):
    plain = web_client.get(path, headers={"accept-encoding": "identity"})
    packed = web_client.get(path, headers={"accept-encoding": "gzip"})
    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip" and "Accept-Encoding" in packed.headers["vary"]
    assert int(packed.headers["content-length"]) < len(plain.content)
    assert packed.content == plain.content  # the client unpacks it: the same bytes


def test_a_short_answer_is_not_worth_compressing(web_client):
    response = web_client.get("/api/p/no/such/passage", headers={"accept-encoding": "gzip"})
    assert response.status_code == 404 and "content-encoding" not in response.headers


def test_a_gzipped_body_is_gzip(web_client):
    with web_client.stream("GET", PAGE, headers={"accept-encoding": "gzip"}) as response:
        raw = b"".join(response.iter_raw())
    assert gzip.decompress(raw).startswith(b"<!doctype html>")


# --- static files -----------------------------------------------------------------------------


def test_pages_link_static_files_by_a_hash_of_their_bytes_kept_a_year(web_client):
    from ocgkb.web.static_files import FOLDER

    page = web_client.get("/").text
    links = re.findall(r'href="(/static/[^"]+)"', page)
    assert {link.split("/")[-1].split(".")[0] for link in links} == {"style", "icon"}
    for link in links:
        name = link.removeprefix("/static/")
        stem, digest, ext = name.split(".")
        assert re.fullmatch(r"[0-9a-f]{12}", digest)
        response = web_client.get(link)
        assert response.status_code == 200
        assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert response.content == open(f"{FOLDER}/{stem}.{ext}", "rb").read()


def test_the_plain_name_still_answers_but_briefly_and_a_wrong_hash_not_at_all(web_client):
    response = web_client.get("/static/style.css")
    assert response.status_code == 200 and response.headers["cache-control"] == "public, max-age=300"
    assert web_client.get("/static/style.000000000000.css").status_code == 404


def test_a_changed_file_is_a_new_name(tmp_path, monkeypatch):
    from ocgkb.web import static_files

    (tmp_path / "style.css").write_text("body { color: red }")
    monkeypatch.setattr(static_files, "FOLDER", str(tmp_path))
    static_files.hashed_names.cache_clear()
    try:
        before = static_files.static_url("style.css")
        (tmp_path / "style.css").write_text("body { color: blue }")
        static_files.hashed_names.cache_clear()
        assert static_files.static_url("style.css") != before
    finally:
        static_files.hashed_names.cache_clear()


# --- ETag and 304 -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", [PAGE, API, "/section/4.2.2", "/api/p/4.2.2/4"])
def test_an_answer_the_browser_has_is_a_304(web_client, path):
    first = web_client.get(path)
    tag = first.headers["etag"]
    assert tag.startswith('W/"') and first.headers["cache-control"] == "no-cache"
    again = web_client.get(path, headers={"if-none-match": tag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
    assert web_client.get(path, headers={"if-none-match": tag.removeprefix("W/")}).status_code == 304
    assert web_client.get(path, headers={"if-none-match": 'W/"other"'}).status_code == 200


def test_the_tag_follows_the_url_and_a_pages_language(web_client):
    def tag(path, **headers):
        return web_client.get(path, headers=headers).headers["etag"]

    assert tag(API) == tag(API) != tag("/api/search?q=cost&limit=4")
    assert tag(PAGE) != tag(PAGE, **{"accept-language": "en"}) != tag(PAGE, cookie="lang=en")
    assert tag(API) == tag(API, **{"accept-language": "en"})  # the JSON is the same in any language
    assert web_client.get(PAGE).headers["vary"].startswith("Accept-Language, Cookie")


def test_no_tag_on_errors_nor_posts(web_client):
    assert "etag" not in web_client.get("/api/p/no/such/passage").headers
    assert "etag" not in web_client.get("/section/99.99").headers
    assert "etag" not in web_client.post("/api/read", json={"text": "①：这张卡发动。"}).headers


def test_importing_card_texts_is_another_tag(web_client, tmp_path):
    """A card page shows the imported text: an import must not be answered 304."""
    import os
    import sqlite3

    page = "/card/" + quote("旋风")
    before = web_client.get(page).headers["etag"]
    with sqlite3.connect(os.environ["OCGKB_TEXTS"]) as conn:  # each test's own file (conftest)
        conn.execute("CREATE TABLE t (x)")
    conn.close()
    assert web_client.get(page).headers["etag"] != before


def test_another_knowledge_base_is_another_tag(web_client, small_kb):
    from starlette.testclient import TestClient

    from ocgkb.web.app import create_app

    with TestClient(create_app(small_kb, SMALL, KB)) as small:
        assert small.get(API).headers["etag"] != web_client.get(API).headers["etag"]


# --- the API: passages, scenarios, CORS, OpenAPI ------------------------------------------------


def test_a_passage_and_a_scenario_as_json(web_client, cli):
    passage = web_client.get("/api/p/4.2.2/4")
    assert passage.status_code == 200 and passage.json()["passage"]["id"] == "4.2.2/4"
    scenario = web_client.get("/api/scenario/atk_rush_then_gale").json()
    assert scenario["name"] == "atk_rush_then_gale" and scenario["passed"] is True
    for missing in ("/api/p/4.2.2/999", "/api/scenario/no_such_scenario"):
        response = web_client.get(missing)
        assert response.status_code == 404 and list(response.json()) == ["error"]


def test_the_get_api_is_shared_with_other_sites_and_the_posts_are_not(web_client):
    origin = {"origin": "https://another.example"}
    got = web_client.get(API, headers=origin)
    assert (
        got.headers["access-control-allow-origin"] == "*"
        and "ETag" in got.headers["access-control-expose-headers"]
    )
    preflight = web_client.options(API, headers={**origin, "access-control-request-method": "GET"})
    assert preflight.status_code == 204 and preflight.headers["access-control-allow-origin"] == "*"
    assert "POST" not in preflight.headers["access-control-allow-methods"]
    posted = web_client.post("/api/read", json={"text": "①：这张卡发动。"}, headers=origin)
    assert "access-control-allow-origin" not in posted.headers
    post_preflight = web_client.options(
        "/api/read", headers={**origin, "access-control-request-method": "POST"}
    )
    assert "access-control-allow-origin" not in post_preflight.headers
    assert "access-control-allow-origin" not in web_client.get(PAGE, headers=origin).headers


def test_every_answer_in_the_openapi_document_has_a_schema(web_client):
    spec = web_client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    jsonschema.Draft202012Validator.check_schema({"$defs": schemas})
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                ref = response["content"]["application/json"]["schema"]["$ref"]
                assert ref.removeprefix("#/components/schemas/") in schemas, (path, method, status)


@pytest.mark.parametrize("path", ANSWERS)
def test_real_answers_fit_their_schemas(web_client, path):
    spec = web_client.get("/openapi.json").json()
    response = web_client.get(path)
    name = ANSWERS[path]
    route = next(p for p in spec["paths"] if re.fullmatch(re.sub(r"\{[^}]+\}", ".+", p), path.split("?")[0]))
    documented = spec["paths"][route]["get"]["responses"][str(response.status_code)]
    assert documented["content"]["application/json"]["schema"]["$ref"].endswith("/" + name)
    schema = {"$ref": f"#/components/schemas/{name}", "components": spec["components"]}
    jsonschema.Draft202012Validator(schema).validate(response.json())


def test_a_schema_refuses_an_answer_of_another_shape(web_client):
    spec = web_client.get("/openapi.json").json()
    schema = {"$ref": "#/components/schemas/Passage", "components": spec["components"]}
    wrong = web_client.get("/api/section/4.2.2").json()
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(wrong)


def test_the_post_answers_fit_their_schemas(web_client):
    spec = web_client.get("/openapi.json").json()
    deck = web_client.post("/api/deck/check", content=b"#main\n23434538\n")
    reading = web_client.post("/api/read", json={"text": "①：自己主要阶段才能发动。自己从卡组抽1张。"})
    for response, name in ((deck, "Deck"), (reading, "Reading")):
        assert response.status_code == 200, response.text
        schema = {"$ref": f"#/components/schemas/{name}", "components": spec["components"]}
        jsonschema.Draft202012Validator(schema).validate(response.json())


# --- serving on every interface -----------------------------------------------------------------


@pytest.fixture
def serve_nothing(monkeypatch):
    from ocgkb.web import server

    for name in ("OCGKB_DB", "OCGKB_DATA", "OCGKB_KB", "OCGKB_ALLOWED_HOSTS"):
        monkeypatch.setenv(name, "")  # serve sets them for its workers: restored after
    monkeypatch.setattr(server, "check_port", lambda host, port: None)
    monkeypatch.setattr(server, "run", lambda *args, **kwargs: None)
    return server


def test_serving_on_every_interface_prints_where_a_phone_reaches_it(cli, serve_nothing, monkeypatch):
    monkeypatch.setattr(serve_nothing, "lan_addresses", lambda: ["10.0.0.7", "192.168.1.20"])
    result = cli("serve", "--host", "0.0.0.0", "--port", "8768")
    lines = result.stderr.splitlines()
    assert any(line.startswith("warning:") and "open to other machines" in line for line in lines)
    for url in ("http://10.0.0.7:8768/", "http://192.168.1.20:8768/"):
        assert f"ocgkb: from a phone or another machine on this network: {url}" in lines
    one_address = cli("serve", "--host", "127.0.0.1", "--port", "8768").stderr
    assert "phone" not in one_address


def test_no_network_address_is_said_not_failed(cli, serve_nothing, monkeypatch):
    monkeypatch.setattr(serve_nothing, "lan_addresses", lambda: [])
    result = cli("serve", "--host", "0.0.0.0", "--port", "8768")
    assert "no network address other machines can reach" in result.stderr


def test_the_address_finder_never_raises_and_gives_no_loopback(monkeypatch):
    import socket

    from ocgkb.web import server

    for address in server.lan_addresses():
        assert not address.startswith("127.") and socket.inet_aton(address)

    def no_network(*args, **kwargs):
        raise OSError("network is unreachable")

    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    assert server.lan_addresses() == []
