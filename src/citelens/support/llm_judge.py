"""The `llm` judge: one chat call per (sentence, cited document), asked with a prompt
(llm_prompt.py; the TREC RAG 2024 support judgement by default), its answer read for a
label as the organizers' script reads it."""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field

from citelens.support.llm_client import ChatClient
from citelens.support.llm_prompt import Prompt, load_prompt
from citelens.support.verdict import Verdict


@dataclass
class LLMBackend:
    """A chat model behind an OpenAI-compatible endpoint, asked with one prompt."""

    client: ChatClient
    prompt: Prompt = field(default_factory=load_prompt)

    def __post_init__(self) -> None:
        self.id = f"llm:{self.client.model}"
        self.max_citations: int | None = self.prompt.max_citations or None
        self.cancel: threading.Event = self.client.cancel
        self.fingerprint = hashlib.blake2b(
            f"llm\x00{self.client.endpoint.rstrip('/')}\x00{self.client.model}\x00{self.prompt.key}".encode(),
            digest_size=8,
        ).hexdigest()

    def judge(self, sentence: str, document: str) -> tuple[Verdict | None, str | None]:
        answer = self.client.complete(
            self.prompt.render(sentence, document), self.prompt.temperature, self.prompt.n
        )
        verdict, _ = self.prompt.label(answer)
        return verdict, answer

    def cost(self, sentence: str, document: str) -> int:
        """Prompt tokens, estimated at four characters a token (no tokenizer is loaded)."""
        return -(-len(self.prompt.render(sentence, document)) // 4)
