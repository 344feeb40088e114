"""mafiatab: an open tournament system for sports mafia under the FIIM regulation."""

__version__ = "0.1.0"
