"""CiteLens: validate, explain and convert TREC RAG-family report submissions.

Importing this package must stay cheap: sub-packages load their heavy parts lazily.
"""

__version__ = "0.1.0"
