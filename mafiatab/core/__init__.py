"""The pure domain core: protocols, regulations, validation, scoring, standings, seating.

Nothing here imports Django; the web app, the API and the CLI call this package.
"""
