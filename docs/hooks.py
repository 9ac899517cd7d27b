"""MkDocs hook: the site also carries the repository's top-level documents (README,
CONTRIBUTING, CHANGELOG, the benchmarks' README), and relative links keep working both on
the forge (where docs/ is browsed as files) and on the built site.

A link is written as the forge needs it, relative to the file in the repository
(`../bench/README.md` from docs/, `docs/checking.md` from README.md); on the site it is
rewritten to where that file's page is. A link to any other file outside docs/ is left as
it is, so `mkdocs build --strict` reports it.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
#: repository files published on the site, under SITE_PREFIX
REPO_PAGES = ("README.md", "CONTRIBUTING.md", "CHANGELOG.md", "bench/README.md")
SITE_PREFIX = "repo/"
_LINK = re.compile(r"(\]\()([^)\s#]*)(#[^)\s]*)?(\))")


def on_files(files: Files, config: Any) -> Files:
    for rel in REPO_PAGES:
        path = ROOT / rel
        if path.exists():
            files.append(File.generated(config, SITE_PREFIX + rel, content=path.read_text(encoding="utf-8")))
    return files


def _repo_path(src_uri: str) -> str:
    """Where a site page's source is, relative to the repository root."""
    return src_uri[len(SITE_PREFIX) :] if src_uri.startswith(SITE_PREFIX) else "docs/" + src_uri


def _site_path(repo_rel: str) -> str | None:
    """The site page of a repository file, or None when the file is not on the site."""
    if repo_rel.startswith("docs/"):
        return repo_rel[len("docs/") :]
    if repo_rel in REPO_PAGES:
        return SITE_PREFIX + repo_rel
    return None


def relink(markdown: str, src_uri: str) -> str:
    """Relative links of the page at `src_uri`, rewritten from repository paths to site paths."""
    repo_dir = posixpath.dirname(_repo_path(src_uri))
    site_dir = posixpath.dirname(src_uri) or "."

    def fix(m: re.Match[str]) -> str:
        target = m.group(2)
        if not target or ":" in target or target.startswith("/"):
            return m.group(0)
        site = _site_path(posixpath.normpath(posixpath.join(repo_dir, target)))
        if site is None:
            return m.group(0)
        return m.group(1) + posixpath.relpath(site, site_dir) + (m.group(3) or "") + m.group(4)

    return _LINK.sub(fix, markdown)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    return relink(markdown, page.file.src_uri)
