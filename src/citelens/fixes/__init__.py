"""Applying the rules' fixes to a file (`apply.fix_text`); the fixers themselves sit beside
their rules (`citelens.check.rules`), one repair at a time through
`citelens.check.fix_context.fix_for`."""
