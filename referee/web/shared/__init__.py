"""What two or more areas of the web face need (tables, tournaments, clubs, printing, api), written once here: the
areas import each other never, these modules (and ``services.py``, ``i18n.py``, ``serving/``) always. Nothing here
imports an area.

- ``requests.py``: a request's JSON body within limits, the key of a page's address or form, a whole number sent.
- ``live.py``: a live view's fragment drawn once per revision, the poll's refusal of a key that opens nothing, and
  the keyed live views (a tournament's, a club's): their memo, their poll and their page's stream.
- ``qr.py``: the QR codes of the links phones open.
- ``visible.py``: what a key's role may read of a tournament while the director hides the standings.
- ``csv_files.py``, ``workbooks.py``: every CSV and .xlsx file written, no cell a formula.
- ``club_forms.py``: a club's members on a set-up form (a table's, a tournament's).
- ``headline.py``: a series' standing and result in words; ``filters.py``: the template filters and globals every
  area's pages use, registered by the factory.
"""
