"""The web face of Referee: the JSON API, the pages, and the command line (init-db, serve)."""
