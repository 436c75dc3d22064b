"""The JSON APIs (``tables.py``: tables and their events; ``tournaments.py``) and their OpenAPI document
(``openapi.py``, ``openapi_events.py``, ``openapi_tournaments.py``)."""
