"""Referee: keeps score and referees card games played with real cards at a real table."""


def create_app(config=None):
    """The Flask application (``flask --app referee …`` finds it here)."""
    from referee.web.app import create_app as make_app

    return make_app(config)
