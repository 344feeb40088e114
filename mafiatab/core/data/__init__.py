"""Data files shipped with the core (the bundled demo tournament)."""
