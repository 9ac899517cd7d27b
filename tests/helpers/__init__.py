"""What tests share: sample data, report and run factories, the reference oracles, an LSP
session, CLI capture. Every test imports them one way: `from tests.helpers.x import ...`."""
