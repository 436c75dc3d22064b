"""The pieces every part of the OpenAPI document is written with (``openapi.py`` and its tables', streams', clubs'
and tournaments' parts): a schema's reference, a JSON answer, a shared refusal, a request's JSON body."""
from __future__ import annotations


def ref(name: str) -> dict:
    """A reference to the schema ``name`` of the document's components."""
    return {"$ref": f"#/components/schemas/{name}"}


def answer(description: str, schema: dict, headers: dict | None = None) -> dict:
    """An answer whose body is JSON of ``schema`` (with these headers)."""
    answer = {"description": description, "content": {"application/json": {"schema": schema}}}
    if headers:
        answer["headers"] = headers
    return answer


def error(name: str) -> dict:
    """A reference to the refusal ``name`` of the document's components (BadKey, RateLimited, Error …)."""
    return {"$ref": f"#/components/responses/{name}"}


def body(schema: dict, required: bool = True) -> dict:
    """A request's JSON body of ``schema``."""
    return {"required": required, "content": {"application/json": {"schema": schema}}}
