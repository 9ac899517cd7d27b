"""The prompt a model judge is asked with, and how its answer is read: data in
prompts/*.toml (the TREC RAG 2024 support judgement ships), or a user's own file."""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path

from citelens.support.errors import JudgeError
from citelens.support.verdict import Verdict

PROMPTS = Path(__file__).parent / "prompts"
DEFAULT_PROMPT = "trec-rag-2024"


class PromptError(JudgeError):
    """A prompt setting that cannot be used; the message says why."""


@dataclass(frozen=True)
class Prompt:
    """A chat prompt with {statement} and {citation}, its call settings and its labels."""

    name: str
    version: str
    template: str
    temperature: float = 0.1
    n: int = 1
    max_citations: int = 3
    #: (phrase, verdict), looked for in this order in the lower-cased answer
    labels: tuple[tuple[str, Verdict], ...] = ()

    def render(self, statement: str, citation: str) -> str:
        # plain replacement, not str.format: a document's own braces stay as they are
        return self.template.replace("{statement}", statement).replace("{citation}", citation)

    def label(self, answer: str) -> tuple[Verdict | None, str | None]:
        """The verdict an answer gives (None: no label in it) and the phrase found."""
        text = answer.lower()
        for phrase, verdict in self.labels:
            if phrase in text:
                return verdict, phrase
        return None, None

    @property
    def key(self) -> str:
        """What the cache key holds of the prompt: its name, version and a hash of the rest."""
        digest = hashlib.blake2b(
            repr((self.template, self.temperature, self.n, self.labels)).encode(), digest_size=8
        ).hexdigest()
        return f"{self.name}@{self.version}#{digest}"


def load_prompt(spec: str | None = None) -> Prompt:
    """A shipped prompt by name (default: the TREC RAG 2024 one), a prompt TOML file, or a
    plain text file holding the template (the TREC RAG 2024 settings and labels apply)."""
    spec = spec or DEFAULT_PROMPT
    shipped = PROMPTS / f"{spec}.toml"
    if shipped.is_file():
        return _from_toml(shipped.read_text(encoding="utf-8"), str(shipped))
    path = Path(spec)
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in PROMPTS.glob("*.toml")))
        raise PromptError(f"no prompt {spec!r}: give a prompt file or one of {known}")
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".toml":
        return _from_toml(text, str(path))
    base = load_prompt(DEFAULT_PROMPT)
    if "{statement}" not in text or "{citation}" not in text:
        raise PromptError(f"{path}: a prompt needs {{statement}} and {{citation}} where they go")
    version = hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
    return Prompt(path.stem, version, text, base.temperature, base.n, base.max_citations, base.labels)


def _from_toml(text: str, where: str) -> Prompt:
    try:
        data = tomllib.loads(text)
        labels = tuple((str(phrase).lower(), Verdict(verdict)) for phrase, verdict in data["labels"])
        prompt = Prompt(
            name=str(data["name"]),
            version=str(data["version"]),
            template=str(data["template"]).strip("\n") + "\n",
            temperature=float(data.get("temperature", 0.1)),
            n=int(data.get("n", 1)),
            max_citations=int(data.get("max_citations", 3)),
            labels=labels,
        )
    except tomllib.TOMLDecodeError as exc:
        raise PromptError(f"{where}: not valid TOML: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise PromptError(f"{where}: a prompt needs name, version, template and labels ({exc})") from None
    if "{statement}" not in prompt.template or "{citation}" not in prompt.template:
        raise PromptError(f"{where}: the template needs {{statement}} and {{citation}}")
    return prompt
