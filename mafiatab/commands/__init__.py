"""Subcommands of the `mafiatab` CLI; see `mafiatab.cli`."""
