"""Repairs for findings, as text edits; and the loop that applies them to a file."""
