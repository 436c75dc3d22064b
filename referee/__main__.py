"""``python -m referee``: the ``referee`` command without installing it (referee/web/cli.py ``main``)."""
from referee.web.cli import main

main()
