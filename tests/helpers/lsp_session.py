"""What the end-to-end tests share: client profiles, a text model of the client's side, and
waiting for diagnostics of one document version (pushed or pulled)."""

from __future__ import annotations

import ast
import asyncio
import io
import json
import sys
from collections.abc import Callable, Mapping
from contextlib import redirect_stdout, suppress
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from citelens.source.line_index import LineIndex

SERVER_COMMAND = [sys.executable, "-m", "citelens_server"]
TIMEOUT = 20.0


def _pull() -> types.ClientCapabilities:
    caps = client_capabilities("visual-studio-code")
    caps.text_document.diagnostic = types.DiagnosticClientCapabilities(dynamic_registration=False)
    caps.window.work_done_progress = True
    return caps


def _encoding(kind: str) -> types.ClientCapabilities:
    caps = client_capabilities("visual-studio-code")
    caps.general = types.GeneralClientCapabilities(position_encodings=[kind])
    return caps


#: profile -> (capabilities factory, expected position encoding, pulls diagnostics)
#: read-only: a test that needs other capabilities passes them to `start`
PROFILES: Mapping[str, tuple[Callable[[], types.ClientCapabilities], str, bool]] = MappingProxyType(
    {
        "vscode-utf16-push": (lambda: client_capabilities("visual-studio-code"), "utf-16", False),
        "pull-diagnostics": (_pull, "utf-16", True),
        "utf-8": (lambda: _encoding("utf-8"), "utf-8", False),
        "utf-32": (lambda: _encoding("utf-32"), "utf-32", False),
        "neovim-0.10": (lambda: client_capabilities("neovim@v0.10.0"), "utf-16", True),
        "neovim-0.7": (lambda: client_capabilities("neovim@v0.7.0"), "utf-16", False),
        "emacs-29": (lambda: client_capabilities("emacs"), "utf-32", False),
    }
)

#: one profile per position encoding: for tests whose behaviour depends on the encoding
#: only (positions of hovers, ranges, edits), not on push or pull
ONE_PER_ENCODING = ("vscode-utf16-push", "utf-8", "utf-32")


@dataclass
class Profile:
    name: str
    encoding: str
    pull: bool


def install_version_tracking(client: LanguageClient) -> None:
    """Remember the version of every publishDiagnostics (pytest-lsp keeps only the items),
    and accept capability registrations (pytest-lsp's client has no handler for them)."""
    client.registrations = []  # type: ignore[attr-defined]

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    client.published_versions = {}  # type: ignore[attr-defined]
    client.published_counts = []  # type: ignore[attr-defined]  # (uri, number of diagnostics) in order
    features = client.protocol.fm.features
    original = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def publish(params: types.PublishDiagnosticsParams) -> None:
        client.published_versions[params.uri] = params.version  # type: ignore[attr-defined]
        client.published_counts.append((params.uri, len(params.diagnostics)))  # type: ignore[attr-defined]
        original(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish


async def diagnostics(
    client: LanguageClient, profile: Profile, uri: str, version: int
) -> list[types.Diagnostic]:
    """The diagnostics of `uri` at `version`, the way this client gets them."""
    if profile.pull:
        report = await asyncio.wait_for(
            client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
            ),
            TIMEOUT,
        )
        assert report.kind == "full"
        return list(report.items)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while client.published_versions.get(uri) != version:  # type: ignore[attr-defined]
        remaining = deadline - loop.time()
        assert remaining > 0, f"no diagnostics for {uri} version {version}"
        with suppress(TimeoutError):
            await asyncio.wait_for(
                client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), remaining
            )
    return list(client.diagnostics[uri])


async def wait_until(
    client: LanguageClient, predicate, what: str, method: str = types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
) -> None:
    """Wait for notifications (of `method`: published diagnostics, unless told) until
    `predicate()` holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while not predicate():
        remaining = deadline - loop.time()
        assert remaining > 0, f"timed out waiting for {what}"
        with suppress(TimeoutError):
            await asyncio.wait_for(client.wait_for_notification(method), remaining)


def open_document(client: LanguageClient, path: Path, text: str, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="jsonl", version=version, text=text)
        )
    )
    return uri


def cli_findings(path: Path, *extra: str) -> list[dict]:
    """`citelens check --format json PATH` as the user would run it."""
    from citelens.cli import main

    out = io.StringIO()
    with redirect_stdout(out):
        main(["check", "--format", "json", *extra, str(path)])
    return json.loads(out.getvalue())["findings"]


def expected_diagnostics(path: Path, text: str, encoding: str, *extra: str) -> list[tuple]:
    """The CLI's findings as (code, severity, message, range) in the client's encoding."""
    index = LineIndex(text)
    out = []
    for f in cli_findings(path, *extra):
        # the CLI's columns count code points; a span may end inside a CRLF (no clamping)
        start = index.starts[f["line"] - 1] + f["column"] - 1
        end = index.starts[f["end_line"] - 1] + f["end_column"] - 1
        out.append(
            (
                f["code"],
                f["severity"],
                f["message"],
                index.position(start, encoding),
                index.position(end, encoding),
            )
        )
    return sorted(out)


SEVERITY_NAMES = {1: "error", 2: "warning", 3: "info"}


def json_tuples(diags: list[dict]) -> list[tuple]:
    """`as_tuples` of diagnostics as JSON (a raw client's)."""
    return sorted(
        (
            d["code"],
            SEVERITY_NAMES[d["severity"]],
            d["message"],
            (d["range"]["start"]["line"], d["range"]["start"]["character"]),
            (d["range"]["end"]["line"], d["range"]["end"]["character"]),
        )
        for d in diags
    )


def as_tuples(diags: list[types.Diagnostic]) -> list[tuple]:
    return sorted(
        (
            d.code,
            SEVERITY_NAMES[int(d.severity)],
            d.message,
            (d.range.start.line, d.range.start.character),
            (d.range.end.line, d.range.end.character),
        )
        for d in diags
    )


class ClientText:
    """The client's copy of a document: applies LSP edits the way an editor does."""

    def __init__(self, text: str, encoding: str) -> None:
        self.text, self.encoding = text, encoding

    def offset(self, pos: types.Position) -> int:
        return LineIndex(self.text).offset_at(pos.line, pos.character, self.encoding)

    def position(self, offset: int) -> types.Position:
        line, ch = LineIndex(self.text).position(offset, self.encoding)
        return types.Position(line, ch)

    def apply(self, edits: list[types.TextEdit]) -> None:
        spans = sorted(
            ((self.offset(e.range.start), self.offset(e.range.end), e.new_text) for e in edits), reverse=True
        )
        for start, end, new in spans:
            self.text = self.text[:start] + new + self.text[end:]


def action_command(action: types.CodeAction | types.Command) -> tuple[str, list]:
    """(command, arguments) of a command-only code action (lsprotocol's client side reads
    any action holding a `command` as a bare Command: its command is then the repr of a
    mapping)."""
    command: Any = action.command
    if isinstance(command, str):  # the nested Command as Python's repr of its mapping
        command = ast.literal_eval(command)
    if isinstance(command, dict):
        return command["command"], command.get("arguments", [])
    return command.command, list(command.arguments or [])


def edits_of(edit: types.WorkspaceEdit, uri: str) -> list[types.TextEdit]:
    if edit.document_changes:
        return [
            e
            for c in edit.document_changes
            if getattr(c, "text_document", None) is not None and c.text_document.uri == uri  # not CreateFile
            for e in c.edits
        ]
    return list((edit.changes or {}).get(uri, []))


async def start(
    client: LanguageClient,
    profile_name: str,
    folder: Path,
    init_options: dict[str, Any] | None = None,
    *,
    capabilities: types.ClientCapabilities | None = None,
) -> Profile:
    """Initialize the session as the profile's client (or with `capabilities`, keeping the
    profile's encoding and diagnostics mode) and check the negotiated position encoding."""
    caps_factory, encoding, pull = PROFILES[profile_name]
    install_version_tracking(client)
    result = await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities if capabilities is not None else caps_factory(),
            initialization_options={"debounceMs": 0, **(init_options or {})},
            workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="ws")],
            root_uri=folder.as_uri(),
        )
    )
    negotiated = result.capabilities.position_encoding
    assert str(getattr(negotiated, "value", negotiated)) == encoding
    return Profile(profile_name, encoding, pull)
