"""A table's pages: the home page, set-up, the scorer's screen and its entries, the numbers screen, sharing, the
live views, installing and opening offline; their templates (``templates/``)."""
from referee.web.tables import numbers, offline, pages, scorer, setup, share  # noqa: F401  (their routes)
