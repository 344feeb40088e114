"""Notifications: the inbox of every account and the outbox of its further channels.

It stands just above `accounts`: any app above calls `notify(recipients, kind,
params, link)` from its services; this app knows none of them.
"""
