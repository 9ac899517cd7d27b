"""Which support judge a check uses, and the model behind it: from the judge setting
(`--judge`, or `support_judge` in a project file) and the model's own settings, which
come only from the user (the command line, or the environment: CITELENS_LLM_ENDPOINT,
CITELENS_LLM_MODEL, CITELENS_LLM_KEY_ENV, CITELENS_NLI_MODEL), never from a project
file: a cloned repository cannot choose where its documents are sent or which key
goes with them."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from citelens.support.errors import JudgeError

if TYPE_CHECKING:
    from citelens.support.model_judge import ModelBackend


BackendError = JudgeError  # a judge that cannot be set up as asked


@dataclass(frozen=True)
class ModelOptions:
    """The user's settings of the model judges (None: not given)."""

    endpoint: str | None = None
    model: str | None = None
    key_env: str | None = None  # the NAME of the environment variable holding the key
    prompt: str | None = None
    timeout: float = 60.0
    retries: int = 4
    nli_model: str | None = None
    cancel: threading.Event = field(default_factory=threading.Event, compare=False)

    @classmethod
    def from_environment(cls, **given: object) -> ModelOptions:
        """The given values, else the user's environment variables."""
        env = os.environ
        values = {
            "endpoint": given.get("endpoint") or env.get("CITELENS_LLM_ENDPOINT"),
            "model": given.get("model") or env.get("CITELENS_LLM_MODEL"),
            "key_env": given.get("key_env") or env.get("CITELENS_LLM_KEY_ENV"),
            "nli_model": given.get("nli_model") or env.get("CITELENS_NLI_MODEL"),
        }
        rest = {k: v for k, v in given.items() if k not in values and v is not None}
        return cls(**values, **rest)  # type: ignore[arg-type]


def model_backend(judge: str, options: ModelOptions) -> tuple[ModelBackend | None, bool]:
    """(the model backend, cascade?) for a judge name; (None, False) for `lexical`.
    `cascade` uses the LLM when an endpoint is given, else the NLI model."""
    if judge == "lexical":
        return None, False
    cascade = judge == "cascade"
    if judge == "nli" or (cascade and not options.endpoint and options.nli_model):
        return _nli(options), cascade
    if judge in ("llm", "cascade"):
        return _llm(options), cascade
    raise BackendError(f"unknown support judge {judge!r}: use lexical, llm, nli or cascade")


def _llm(options: ModelOptions) -> ModelBackend:
    from citelens.support.llm_client import ChatClient, api_key_from
    from citelens.support.llm_judge import LLMBackend
    from citelens.support.llm_prompt import load_prompt

    if not options.endpoint or not options.model:
        raise BackendError(
            "the llm judge needs an endpoint and a model: --llm-endpoint URL --llm-model NAME "
            "(or CITELENS_LLM_ENDPOINT and CITELENS_LLM_MODEL)"
        )
    client = ChatClient(
        options.endpoint,
        options.model,
        api_key=api_key_from(options.key_env),
        timeout=options.timeout,
        retries=options.retries,
        cancel=options.cancel,
    )
    return LLMBackend(client, load_prompt(options.prompt))


def _nli(options: ModelOptions) -> ModelBackend:
    if not options.nli_model:
        raise BackendError("the nli judge needs a model folder: --nli-model PATH (or CITELENS_NLI_MODEL)")
    from citelens.support.nli import NLIBackend

    return NLIBackend.load(options.nli_model, cancel=options.cancel)
