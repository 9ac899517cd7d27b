from citelens.cli import entry

entry()
