"""`Workspace`: the settings of every file, one checker per distinct settings, and the
open documents.

A server holds one for its whole life; `citelens check` makes one per run. Settings are
resolved per file (see `layers` for the precedence); the files they come from (project
files, spec files, topics files) are stamped (mtime, size), and `refresh` drops what
they produced when a stamp changes, so the next check reads them again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from citelens.check.engine import Checker
from citelens.check.result import FileResult
from citelens.config.loader import find_config
from citelens.config.overrides import ProjectFile, load_project
from citelens.config.settings import Settings
from citelens.config.trust import trust_store, user_config_file
from citelens.session.document_uri import path_of
from citelens.session.layers import (
    Layer,
    check_project_thresholds,
    cli_layer,
    editor_layer,
    override_layer,
    project_layer,
    resolve,
)

if TYPE_CHECKING:
    from citelens.corpus import SourceChain
    from citelens.session.open_document import OpenDocument
    from citelens.support.run import SupportRun

_Stamp = tuple[int, int] | None


def _stamp(path: Path) -> _Stamp:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


#: files whose settings are kept (a workspace walk may ask for thousands)
SETTINGS_KEPT = 4096


class Workspace:
    """Settings, checkers and open documents of one editor window or one CLI run.

    `roots`: the workspace folders; `init_options`: the client's initialization options
    (a settings mapping); `cli`: overrides that win over everything (None = not given);
    `checker_options`: extra `Checker` arguments (the CLI passes `workers`, `cache_size`).
    `support_runs`: makes the `SupportRun` of a checker whose settings turn support on,
    given the settings and their open document sources (the CLI passes its executor and
    disk cache); without it, support runs in this process with a memory cache.
    """

    def __init__(
        self,
        roots: Iterable[str | Path] = (),
        *,
        init_options: Mapping[str, Any] | None = None,
        cli: Mapping[str, Any] | None = None,
        checker_options: Mapping[str, Any] | None = None,
        support_runs: Callable[[Settings, SourceChain | None], SupportRun] | None = None,
    ) -> None:
        self.roots = [Path(r).absolute() for r in roots]
        self.messages: list[str] = []  # editor values that were left out, for the log
        # what the user must read, once: project-file values that need trust (`config.trust`)
        self.notices: list[str] = []
        self._told: set[str] = set()  # notices given (two threads may load one file at once)
        self._told_lock = threading.Lock()
        base = self.roots[0] if self.roots else None
        self._init, msgs = editor_layer(init_options, "initialization options", base)
        self.messages.extend(msgs)
        self._cli: Layer = cli_layer(cli)
        self._editor: dict[Path | None, Layer] = {}
        self._checker_options = dict(checker_options or {})
        self._support_runs = support_runs
        self._configs: dict[Path, Path | None] = {}  # folder -> its project file
        self._loaded: dict[Path, ProjectFile] = {}  # project file -> what it holds
        self._checkers: dict[tuple[Any, ...], Checker] = {}
        #: file -> (generation, its settings): settings change only with the generation
        self._settings: dict[Path | None, tuple[int, Settings]] = {}
        #: with support off, the support runs hovers judge with: (generation, settings key) -> run
        self._lookup_runs: dict[tuple[Any, ...], SupportRun] = {}
        self._stamps: dict[Path, _Stamp] = {}
        self._docs: dict[str, OpenDocument] = {}
        self._sources: dict[tuple[tuple[str, ...], Path | None], SourceChain] = {}
        self.generation = 0  # bumped whenever settings may have changed

    # --- settings -------------------------------------------------------------------
    def set_editor_settings(
        self, settings: Mapping[str, Any] | None, folder: str | Path | None = None
    ) -> None:
        """The editor's settings for one workspace folder (None: for every folder). The
        generation moves only when a value does: an editor answers every settings request
        at start, most often with nothing, and that must not check every open run again."""
        key = Path(folder).absolute() if folder is not None else None
        where = f"editor settings ({key})" if key is not None else "editor settings"
        layer, msgs = editor_layer(settings, where, key or (self.roots[0] if self.roots else None))
        self.messages.extend(msgs)
        before = self._editor.get(key)
        self._editor[key] = layer
        if (before.values if before is not None else {}) != layer.values:
            self.generation += 1
            self.drop_sources()

    def settings_for(self, path: str | Path | None) -> Settings:
        """The settings of one file: per key, the command line, else the project file
        found walking up from the file, else the editor settings of the folder holding
        it, else the initialization options, else the default. Raises `ConfigError` for a
        broken project file."""
        key = Path(path).absolute() if path is not None else None
        kept = self._settings.get(key)
        if kept is not None and kept[0] == self.generation:
            return kept[1]
        settings = self._resolve_settings(key)
        if len(self._settings) >= SETTINGS_KEPT:
            self._settings.clear()
        self._settings[key] = (self.generation, settings)
        return settings

    def _resolve_settings(self, path: Path | None) -> Settings:
        layers = [*self._user_layer(), self._init]
        source = None
        if None in self._editor:
            layers.append(self._editor[None])
        if path is not None:
            folder = self._editor_folder(path)
            if folder is not None:
                layers.append(self._editor[folder])
            config = self._config_for(path.parent)
            if config is not None:
                project = self.project(config)
                layers.append(project_layer(project.settings))
                layers.extend(override_layer(o) for o in project.overrides_for(path))
                source = config
        layers.append(self._cli)
        return resolve(layers, source)

    def _user_layer(self) -> list[Layer]:
        """The user's own config file (`config.trust.user_config_file`), if there is one."""
        user = user_config_file()
        self._watch(user)
        loaded = self._loaded.get(user)
        if loaded is None:
            try:
                present = user.is_file()
            except OSError:  # a config folder this user may not look into: none of theirs
                present = False
            if not present:
                return []
            loaded = self._loaded[user] = load_project(user)
        return [project_layer(loaded.settings)]

    def project(self, config: Path) -> ProjectFile:
        """A project file as read (settings, overrides, exclusion), read once until it changes."""
        loaded = self._loaded.get(config)
        if loaded is None:
            self._watch(config)
            loaded = load_project(config)
            withheld: list[str] = []
            for settings in (loaded.settings, *(o.settings for o in loaded.overrides)):
                check_project_thresholds(settings)
                if settings.corpora:  # a bad service option: an error on its line
                    from citelens.session.source_options import check_project_sources

                    check_project_sources(settings)
                withheld.extend(settings.withheld)
            if withheld:  # said once (the settings are kept); `citelens trust` re-reads
                with self._told_lock:
                    new = [n for n in withheld if n not in self._told]
                    self._told.update(new)
                    self.notices.extend(new)
                self._watch(trust_store())
            self._loaded[config] = loaded
        return loaded

    def project_for(self, path: str | Path) -> ProjectFile | None:
        """The project file that governs `path` (the nearest one above it), read."""
        path = Path(path).absolute()
        config = self._config_for(path if path.is_dir() else path.parent)
        return self.project(config) if config is not None else None

    def _editor_folder(self, path: Path) -> Path | None:
        best = None
        for folder in self._editor:
            if (
                folder is not None
                and path.is_relative_to(folder)
                and (best is None or len(folder.parts) > len(best.parts))
            ):
                best = folder
        return best

    def _config_for(self, folder: Path) -> Path | None:
        if folder not in self._configs:
            self._configs[folder] = find_config(folder)
        return self._configs[folder]

    # --- checkers -------------------------------------------------------------------
    def checker_for(self, path: str | Path | None, *, fixes: bool = False) -> Checker:
        """The checker for a file's settings: one per distinct settings (spec, topics,
        strict, severity), made on first use. Raises `SpecError`/`TopicFileError` for a
        spec or topics file that cannot be read."""
        return self.checker_for_settings(self.settings_for(path), fixes=fixes)

    def checker_for_settings(self, settings: Settings, *, fixes: bool = False) -> Checker:
        key = (*_settings_key(settings), fixes)
        checker = self._checkers.get(key)
        if checker is None:
            from citelens.specs import resolve_spec
            from citelens.topics import load_topics

            if settings.spec and not _is_builtin(settings.spec):
                self._watch(Path(settings.spec.partition("#")[0]))
            if settings.topics:
                self._watch(settings.topics)
            spec = resolve_spec(settings.spec) if settings.spec else None
            topics = load_topics(settings.topics) if settings.topics else None
            options = {"workers": 1, "cache_size": 20000, **self._checker_options}
            if fixes:
                options.update(workers=1, cache_size=max(options["cache_size"], 20000))
            sources = self.sources_for(settings)
            if settings.support and not fixes:
                options["support"] = self._support_run(settings)
            checker = Checker(
                spec,
                cast(Any, topics),
                strict=settings.strict,
                overrides=settings.severity,
                fixes=fixes,
                sources=sources,
                **options,
            )
            self._checkers[key] = checker
        return checker

    def sources_for(self, settings: Settings) -> SourceChain | None:
        """The configured document sources of these settings (`corpora`, relative paths
        from the project file's folder), opened once and shared by the checker, the
        support judge and the editor's hovers; None when no corpus is configured. They are
        closed when the settings change (`set_editor_settings`, `refresh`) or on `close_sources`."""
        if not settings.corpora:
            return None
        base = settings.source.parent if settings.source is not None else None
        key = (tuple(settings.corpora), base)
        chain = self._sources.get(key)
        if chain is None:
            from citelens.corpus import open_sources

            chain = self._sources[key] = open_sources(settings.corpora, base_dir=base)
        return chain

    def close_sources(self) -> None:
        """Close every open document source (index files, service caches)."""
        chains, self._sources = list(self._sources.values()), {}
        for chain in chains:
            chain.close()

    def drop_sources(self) -> None:
        """Settings changed: close the sources, and forget the checkers holding them (the
        next check opens the sources its settings name)."""
        self._lookup_runs.clear()
        if not self._sources:
            return
        self.close_sources()
        self._checkers = {k: c for k, c in self._checkers.items() if not k[4]}

    def support_run_for(self, settings: Settings) -> SupportRun:
        """The SupportRun of these settings' checker (or, with support off, one made for
        a lookup such as a hover: in this process, memory cache)."""
        checker = self.checker_for_settings(settings)
        if checker.support is not None:  # a SupportRun: this workspace gave the checker one
            return cast("SupportRun", checker.support)
        return self._support_run(settings)

    def _support_run(self, settings: Settings) -> SupportRun:
        """One per distinct settings and generation, kept: its memory cache is what makes
        the next hover on an unchanged sentence cost a lookup, not a judgement."""
        key = (self.generation, *_settings_key(settings))
        run = self._lookup_runs.get(key)
        if run is None:
            if any(k[0] != self.generation for k in self._lookup_runs):
                self._lookup_runs.clear()  # settings changed: the old runs are never asked again
            run = self._lookup_runs[key] = self._new_support_run(settings)
        return run

    def _new_support_run(self, settings: Settings) -> SupportRun:
        if self._support_runs is not None:
            return self._support_runs(settings, self.sources_for(settings))
        from citelens.session.model_setup import attach_model
        from citelens.support.run import SupportRun
        from citelens.support.settings import default_settings

        chain = self.sources_for(settings)
        run = SupportRun(
            settings=default_settings().with_overrides(dict(settings.support_thresholds)),
            executor="serial",
            lookup=_text_lookup(chain) if chain is not None else None,
        )
        return attach_model(run, settings)

    def check_file(self, path: str | Path) -> FileResult:
        """A file on disk checked with its settings (the CLI's path: bytes decoded with
        their problems, big files on several processes when `workers` allows). Used for
        files nobody opened (workspace diagnostics), so one over `files.limits` is a
        `FileError` instead of being read."""
        from citelens.files.limits import check_size

        check_size(path)
        return self.checker_for(path).check_path(path)

    # --- reloading ------------------------------------------------------------------
    def awaits_trust(self) -> bool:
        """Were a project file's values left out for want of trust? Then a `citelens trust`
        given later changes the settings (a server watches `trust_record_stamp` for it)."""
        return bool(self._told)

    def trust_record_stamp(self) -> _Stamp:
        """The user's trust record's (mtime, size), None while there is none."""
        return _stamp(trust_store())

    def _watch(self, path: Path) -> None:
        if path not in self._stamps:
            self._stamps[path] = _stamp(path)

    def refresh(self) -> bool:
        """Re-stat the project, spec and topics files in use (and look for project files
        again); True if anything changed, and then settings and checkers are re-read."""
        changed = any(_stamp(p) != s for p, s in self._stamps.items())
        if not changed:
            changed = any(find_config(folder) != config for folder, config in self._configs.items())
        if changed:
            self._configs.clear()
            self._loaded.clear()
            self._checkers.clear()
            self._stamps.clear()
            self.close_sources()
            self.generation += 1
        return changed

    # --- documents ------------------------------------------------------------------
    def open(self, uri_or_path: str | Path, text: str, version: int | None = None) -> OpenDocument:
        """Open (or re-open) a document with the editor's text."""
        from citelens.session.open_document import OpenDocument

        key, path = path_of(uri_or_path)
        doc = OpenDocument(self, key, path, text, version)
        self._docs[key] = doc
        return doc

    def open_file(self, path: str | Path) -> OpenDocument:
        """Open a file from disk (UTF-8 decoded; undecodable bytes become U+FFFD and are
        listed in `problems`). A file that cannot be read is a `FileError` naming it."""
        from citelens.files import read_bytes
        from citelens.session.open_document import OpenDocument
        from citelens.source.run_text import decode

        key, file_path = path_of(Path(path))
        text, problems = decode(read_bytes(path))
        doc = OpenDocument(self, key, file_path, text, None, problems=problems)
        self._docs[key] = doc
        return doc

    def get(self, uri_or_path: str | Path) -> OpenDocument | None:
        return self._docs.get(path_of(uri_or_path)[0])

    def close(self, uri_or_path: str | Path) -> None:
        self._docs.pop(path_of(uri_or_path)[0], None)

    @property
    def documents(self) -> list[OpenDocument]:
        return list(self._docs.values())


def _text_lookup(chain: SourceChain) -> Callable[[str, Mapping[str, Any]], str | None]:
    """The support judge's `(doc_id, report) -> text` over a shared chain of sources."""
    from citelens.corpus import lookup_one

    def lookup(doc_id: str, report: Mapping[str, Any]) -> str | None:
        doc, _why = lookup_one(chain, doc_id)
        return doc.text if doc is not None else None

    return lookup


def _is_builtin(spec: str) -> bool:
    from citelens.specs import builtin_specs

    return spec in builtin_specs()


def _settings_key(settings: Settings) -> tuple[Any, ...]:
    """What tells a checker (or a support run) of one settings from another's."""
    return (
        settings.spec,
        str(settings.topics),
        settings.strict,
        tuple(sorted(settings.severity.items())),
        settings.corpora,
        settings.support,
        tuple(sorted(settings.support_thresholds.items())),
        settings.support_judge,
        tuple(sorted(settings.support_model.items())),
    )
