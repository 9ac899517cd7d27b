"""Reading and writing the user's files: nothing lost, every error naming the user's path."""

from citelens.files.error import FileError
from citelens.files.read import read_bytes
from citelens.files.write import write_file

__all__ = ["FileError", "read_bytes", "write_file"]
