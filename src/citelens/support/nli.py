"""The `nli` judge: a local cross-encoder (premise = document chunk, hypothesis = report
sentence) run with onnxruntime, its tokenizer read with `tokenizers` (the optional
`citelens[nli]` extra). The document is cut into chunks of whole sentences that fit the
model beside the sentence, and the verdict is the one of the chunk that supports the
sentence best (the maximum over chunks, as MiniCheck and WiCE do).

The model folder holds `model.onnx`, `tokenizer.json` and, optionally, `citelens.toml`
saying which output is which label (`labels = ["entailment", "neutral", "contradiction"]`,
the order of the logits; `max_length = 512`; `partial_threshold`). Nothing is downloaded."""

from __future__ import annotations

import hashlib
import math
import threading
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citelens.align.segmenter import sentence_spans
from citelens.support.errors import JudgeError
from citelens.support.verdict import Verdict

#: labels of the model's outputs, in order, unless the folder's citelens.toml says otherwise
DEFAULT_LABELS = ("entailment", "neutral", "contradiction")


#: models kept loaded: an editor's every "Judge this citation" would load it again
MODELS_KEPT = 2
#: folder -> (stamps of its files, onnxruntime session, tokenizer, model digest)
_LOADED: dict[Path, tuple[tuple[object, ...], Any, Any, str]] = {}


def _stamp(path: Path) -> tuple[int, int] | None:
    """(mtime, size) of a file, None when missing: a changed model is loaded again."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


@dataclass
class NLIBackend:
    """An ONNX cross-encoder over (document chunk, sentence) pairs."""

    session: Any  # onnxruntime.InferenceSession
    tokenizer: Any  # tokenizers.Tokenizer
    name: str
    labels: tuple[str, ...] = DEFAULT_LABELS
    max_length: int = 512
    #: entailment probability from which the verdict is "supported"; from partial_threshold, "partial"
    supported_threshold: float = 0.5
    partial_threshold: float = 0.2
    digest: str = ""
    cancel: threading.Event = field(default_factory=threading.Event)
    max_citations: int | None = None

    def __post_init__(self) -> None:
        self.id = f"nli:{self.name}"
        self.fingerprint = hashlib.blake2b(
            f"nli\x00{self.digest}\x00{self.labels}\x00{self.max_length}\x00"
            f"{self.supported_threshold}\x00{self.partial_threshold}".encode(),
            digest_size=8,
        ).hexdigest()
        self._inputs = {i.name for i in self.session.get_inputs()}
        self._lock = threading.Lock()  # one run at a time: the session is shared by the threads

    @classmethod
    def load(cls, folder: str | Path, cancel: threading.Event | None = None) -> NLIBackend:
        """The model in `folder` (model.onnx, tokenizer.json, optional citelens.toml)."""
        path = Path(folder).expanduser()
        model, tok = path / "model.onnx", path / "tokenizer.json"
        if not model.is_file() or not tok.is_file():
            raise JudgeError(f"the nli model folder {path} needs model.onnx and tokenizer.json")
        try:
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError:
            raise JudgeError(
                "the nli judge needs onnxruntime and tokenizers: pip install 'citelens[nli]'"
            ) from None
        options = _folder_options(path)
        settings = path / "citelens.toml"
        labels = tuple(str(x) for x in options.get("labels", DEFAULT_LABELS))
        if "entailment" not in labels:
            raise JudgeError(f"{settings}: labels must name the 'entailment' output, not {list(labels)}")
        stamp = tuple(_stamp(p) for p in (model, tok, settings))
        kept = _LOADED.get(path)
        if kept is not None and kept[0] == stamp:
            session, tokenizer, digest = kept[1:]
        else:
            digest = hashlib.blake2b(model.read_bytes(), digest_size=16).hexdigest()
            try:
                session = onnxruntime.InferenceSession(str(model), providers=["CPUExecutionProvider"])
                tokenizer = Tokenizer.from_file(str(tok))
            except Exception as exc:  # onnxruntime and tokenizers raise their own kinds
                raise JudgeError(f"{path}: the model or tokenizer cannot be loaded: {exc}") from None
            if len(_LOADED) >= MODELS_KEPT:
                _LOADED.clear()
            _LOADED[path] = (stamp, session, tokenizer, digest)
        return cls(
            session,
            tokenizer,
            name=_name(path, options),
            labels=labels,
            max_length=int(options.get("max_length", 512)),
            supported_threshold=float(options.get("supported_threshold", 0.5)),
            partial_threshold=float(options.get("partial_threshold", 0.2)),
            digest=digest,
            cancel=cancel or threading.Event(),
        )

    # --- chunks -------------------------------------------------------------------------
    def _length(self, text: str) -> int:
        return len(self.tokenizer.encode(text, add_special_tokens=False).ids)

    def chunks(self, sentence: str, document: str) -> list[str]:
        """The document as runs of whole sentences that fit the model with `sentence`
        (a sentence longer than the room alone is its own chunk, cut by the tokenizer)."""
        room = max(8, self.max_length - self._length(sentence) - 4)
        out: list[str] = []
        current: list[str] = []
        used = 0
        for start, end in sentence_spans(document) or [(0, len(document))]:
            piece = document[start:end].strip()
            if not piece:
                continue
            n = self._length(piece)
            if current and used + n > room:
                out.append(" ".join(current))
                current, used = [], 0
            current.append(piece)
            used += n
        if current:
            out.append(" ".join(current))
        return out

    # --- judging ------------------------------------------------------------------------
    def entailment(self, sentence: str, document: str) -> float:
        """The highest entailment probability over the document's chunks."""
        import numpy as np

        best = 0.0
        entail = self.labels.index("entailment")
        for chunk in self.chunks(sentence, document):
            if self.cancel.is_set():
                from citelens.support.llm_client import Cancelled

                raise Cancelled
            enc = self.tokenizer.encode(chunk, sentence)
            ids = enc.ids[: self.max_length]
            feeds = {
                "input_ids": np.array([ids], dtype=np.int64),
                "attention_mask": np.array([enc.attention_mask[: len(ids)]], dtype=np.int64),
            }
            if "token_type_ids" in self._inputs:
                feeds["token_type_ids"] = np.array([enc.type_ids[: len(ids)]], dtype=np.int64)
            with self._lock:
                (logits,) = self.session.run(None, {k: v for k, v in feeds.items() if k in self._inputs})[:1]
            row = [float(x) for x in logits[0]]
            top = max(row)
            exps = [math.exp(x - top) for x in row]
            best = max(best, exps[entail] / sum(exps))
        return best

    def judge(self, sentence: str, document: str) -> tuple[Verdict | None, str | None]:
        p = self.entailment(sentence, document)
        if p >= self.supported_threshold:
            verdict = Verdict.SUPPORTED
        elif p >= self.partial_threshold:
            verdict = Verdict.PARTIAL
        else:
            verdict = Verdict.UNSUPPORTED
        return verdict, f"entailment {p:.3f}"

    def cost(self, sentence: str, document: str) -> int:
        return self._length(document) + self._length(sentence) * max(1, len(self.chunks(sentence, document)))


def model_name(folder: str | Path) -> str:
    """The name an nli model's verdicts carry (`nli:<name>`): its folder's citelens.toml
    `name`, else the folder's name. Reads that small file only, never the model."""
    path = Path(folder).expanduser()
    try:
        return _name(path, _folder_options(path))
    except JudgeError:  # loading it says why
        return path.name


def _name(path: Path, options: dict[str, Any]) -> str:
    return str(options.get("name", path.name))


def _folder_options(path: Path) -> dict[str, Any]:
    settings = path / "citelens.toml"
    if not settings.is_file():
        return {}
    try:
        return tomllib.loads(settings.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise JudgeError(f"{settings}: not valid TOML: {exc}") from None
