"""Which support judge a check uses, and the model behind it: from the judge setting
(`--judge`, or `support_judge` in a project file) and the model's own settings, which
come from the user (the command line; the `support_model` table of the user's editor
settings or config file, or of a project file the user trusts; the environment:
CITELENS_LLM_ENDPOINT, CITELENS_LLM_MODEL, CITELENS_LLM_KEY_ENV, CITELENS_NLI_MODEL):
an untrusted cloned repository cannot choose where its documents are sent or which key
goes with them."""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
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
    def from_environment(cls, table: Mapping[str, object] | None = None, **given: object) -> ModelOptions:
        """The given values (the command line), else the `support_model` table of the
        settings (the user's, or a trusted project file's), else the user's environment."""
        env = os.environ
        table = table or {}

        def pick(name: str, variable: str) -> object:
            return given.get(name) or table.get(name) or env.get(variable)

        values = {
            "endpoint": pick("endpoint", "CITELENS_LLM_ENDPOINT"),
            "model": pick("model", "CITELENS_LLM_MODEL"),
            "key_env": pick("key_env", "CITELENS_LLM_KEY_ENV"),
            "nli_model": pick("nli_model", "CITELENS_NLI_MODEL"),
        }
        rest = {k: v for k, v in given.items() if k not in values and v is not None}
        if "prompt" not in rest and table.get("prompt"):
            rest["prompt"] = table["prompt"]
        return cls(**values, **rest)  # type: ignore[arg-type]

    @property
    def configured(self) -> str | None:
        """The model judge these options set up ("llm", "nli"), None: none."""
        if self.endpoint and self.model:
            return "llm"
        return "nli" if self.nli_model else None


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


def backend_id(judge: str, options: ModelOptions) -> str | None:
    """The id (`llm:<model>`, `nli:<name>`) of the backend `model_backend(judge, options)`
    makes, without making it (no model loaded, no key read); None for `lexical` or a
    model judge these options cannot set up."""
    cascade = judge == "cascade"
    if judge == "nli" or (cascade and not options.endpoint and options.nli_model):
        if not options.nli_model:
            return None
        from citelens.support.nli import model_name

        return f"nli:{model_name(options.nli_model)}"
    if judge in ("llm", "cascade") and options.endpoint and options.model:
        return f"llm:{options.model}"
    return None


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


def cached_verdicts_of(options: ModelOptions) -> ModelBackend | None:
    """The llm backend of these options for reading its cached verdicts only: its id and
    cache fingerprint, with no key read (it is never called). None without an endpoint
    and model (an nli model's fingerprint needs the model loaded: not done for this)."""
    if options.configured != "llm":
        return None
    from citelens.support.llm_client import ChatClient
    from citelens.support.llm_judge import LLMBackend
    from citelens.support.llm_prompt import load_prompt

    assert options.endpoint is not None and options.model is not None
    return LLMBackend(
        ChatClient(options.endpoint, options.model, cancel=options.cancel), load_prompt(options.prompt)
    )
