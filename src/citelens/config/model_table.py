"""The `support_model` table: the model a model judge (`llm`, `nli`, `cascade`) calls, and
when the editor may call it on its own. Where documents are sent and which key goes with
them, so it needs trust in a project file (`config.sensitive`); the user's own settings
(editor user settings, the user config file, the environment) need none."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

#: key -> (type, what it holds, for messages)
MODEL_KEYS: Final[dict[str, tuple[type, str]]] = {
    "endpoint": (str, "the OpenAI-compatible API base, e.g. http://localhost:8000/v1"),
    "model": (str, "the model name the endpoint knows"),
    "key_env": (str, "the NAME of the environment variable holding the API key"),
    "prompt": (str, "a prompt file (.txt or .toml)"),
    "nli_model": (str, "a local NLI model folder"),
    "on_save": (bool, "judge a file with the model when it is saved (editor)"),
}


def model_table_problem(table: Mapping[str, Any]) -> tuple[str, str] | None:
    """(key, what is wrong) for the first unusable entry of a support_model table; None:
    all usable."""
    for key, value in table.items():
        if key not in MODEL_KEYS:
            from citelens.config.settings import suggestion

            return key, (
                f"unknown support_model key {key!r}{suggestion(key, list(MODEL_KEYS))}; "
                f"known: {', '.join(MODEL_KEYS)}"
            )
        kind, _ = MODEL_KEYS[key]
        if isinstance(value, bool) is not (kind is bool) or not isinstance(value, kind):
            return (
                key,
                f"support_model.{key} must be {'true or false' if kind is bool else 'a string'}, not {value!r}",
            )
    return None
