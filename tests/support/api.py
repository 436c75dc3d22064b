"""The JSON API: over HTTP to a real server (``api``, ``state``) or through Flask's client (``new_table``, ``events``),
and every answer checked against the OpenAPI document (``check``)."""
import json
import urllib.request

from jsonschema import Draft202012Validator

from referee.web.api.openapi import openapi_document


def state(server, made):
    return api(server, f"/api/v1/tables/{made['id']}", key=made["scorer_key"])


def api(server, path, body=None, key=None):
    request = urllib.request.Request(server.url + path, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {key}"} if key else {})})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


DOC = openapi_document()


def schema_validator(schema: dict) -> Draft202012Validator:
    """A JSON Schema 2020-12 validator for one schema of the document, its $refs resolved inside the document."""
    return Draft202012Validator({**schema, "components": DOC["components"]})


def fits(schema: dict, instance) -> list:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"[:300]
            for e in schema_validator(schema).iter_errors(instance)]


def documented_answer(method: str, path: str, status: int) -> dict:
    answers = DOC["paths"][path][method]["responses"]
    answer = answers.get(str(status), answers["default"])
    if "$ref" in answer:
        answer = DOC["components"]["responses"][answer["$ref"].rsplit("/", 1)[1]]
    return answer


def check(response, method: str, path: str, status: int) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    answer = documented_answer(method, path, status)
    for header in answer.get("headers", {}):
        assert header in response.headers, (path, status, header)
    if response.mimetype == "application/json":
        assert fits(answer["content"]["application/json"]["schema"], response.get_json()) == [], (path, status)
    else:
        assert response.mimetype in answer["content"], (path, status)
    return response.get_json(silent=True)


def new_table(client):
    created = client.post("/api/v1/tables", json={"game": "brisca", "players": ["Ana", "Bo", "Cy", "Di"]}).get_json()
    return created["id"], created["scorer_key"], created["viewer_key"]


def events(client, table_id, key, *bodies):
    for body in bodies:
        assert client.post(f"/api/v1/tables/{table_id}/events", json=body,
                           headers={"Authorization": f"Bearer {key}"}).status_code == 201
