"""The front of a tournament: the pages (and the API object) that bring every part of a
tournament together, so that this app stands above all of them.

The tournament list, the tournament's page (its participants, schedule, the player's
own seats and the file's count), its settings page (with the scoring settings the
standings use), its staff and closing, its history (each audit entry said in words,
whatever app wrote it), its file as a download, and `GET /api/tournaments/...`. The
tournament itself, its staff, permissions and services stand low, in
`mafiatab.tournaments`, where every app may use them.
"""
