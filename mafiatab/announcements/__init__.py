"""The organiser's messages to the tournament's people (all participants, a stage's
players, one table) and the state of what the tournament's messages sent by e-mail.

It stands above `games` (a stage's players and a table's seats are there) and
sends through `mafiatab.notifications`.
"""
