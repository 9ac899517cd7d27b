"""One report as the rules see it: the raw JSON value plus what every rule needs derived
once (where the sentences are, each sentence's citation shape, the topic id).

Rules read raw `json.loads` values rather than pydantic models: it is several times
faster, and a report that a model could not load still gets every finding it deserves.
The shape resolution mirrors how autojudge-base's `Report` model types its sentence list
(the first of neuclir, ragtime, rag24 that every sentence fits, with pydantic's lax
coercions), so both tools agree on which shape a report uses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from citelens.check.finding import Finding, Target, reported
from citelens.source.json_nodes import pointer_join

if TYPE_CHECKING:
    from citelens.check.track_spec import TrackSpec

_INT_TEXT = re.compile(r"\s*[+-]?\d+\s*\Z")

# sentence citation kinds -> the report shapes they are compatible with
SHAPE_ORDER = ("neuclir", "ragtime", "rag24")
_FITS: dict[str, frozenset[str]] = {
    "none": frozenset(SHAPE_ORDER),
    "empty": frozenset({"neuclir", "rag24"}),
    "neuclir": frozenset({"neuclir"}),
    "digits": frozenset({"neuclir", "rag24"}),  # ["0", "2"]: doc ids, or indices after coercion
    "ragtime": frozenset({"ragtime"}),
    "ragtime_lax": frozenset({"ragtime"}),  # scores pydantic coerces (numeric strings, booleans)
    "rag24": frozenset({"rag24"}),
    "ragtime_bad": frozenset(),
    "invalid": frozenset(),
}
FAMILY = {
    "neuclir": "neuclir",
    "digits": "neuclir",
    "rag24": "rag24",
    "ragtime": "ragtime",
    "ragtime_lax": "ragtime",
    "ragtime_bad": "ragtime",
}
SHAPE_NAMES = {
    "rag24": "integer indices into `references`",
    "neuclir": "a list of doc ids",
    "ragtime": "an object mapping doc ids to scores",
}


#: the metadata keys that name the topic; the reference model fills each from the others,
#: so after loading they hold one id (RAG says narrative_id, RAGTIME topic_id/request_id)
TOPIC_ID_ALIASES = ("topic_id", "narrative_id", "request_id")


#: a decoded JSON object and array, as `json.loads` gives them
JsonObject: TypeAlias = dict[str, Any]
JsonArray: TypeAlias = list[Any]
#: the tokens of a JSON pointer before `pointer_join`: keys and indexes
PointerTokens: TypeAlias = tuple[object, ...]


class TopicInfo(Protocol):
    """What the checks read of a topic (read-only, so a frozen `Topic` is one)."""

    @property
    def id(self) -> str: ...

    @property
    def text(self) -> str | None: ...

    @property
    def limit(self) -> int | None: ...


def is_int_like(x: Any) -> bool:
    """What pydantic's lax `int` accepts."""
    if isinstance(x, int):
        return True
    if isinstance(x, float):
        return x.is_integer()
    return isinstance(x, str) and _INT_TEXT.match(x) is not None


_FLOAT_SAFE = 2**1023  # every int strictly inside +-this converts to a finite float


def fits_float(x: int) -> bool:
    """A JSON integer a float field can take: 10**400 cannot (float() overflows, and
    autojudge-base's model refuses it)."""
    if -_FLOAT_SAFE < x < _FLOAT_SAFE:
        return True
    try:
        float(x)
        return True
    except OverflowError:
        return False


def is_score_like(x: Any) -> bool:
    """What pydantic's lax `float` accepts."""
    if isinstance(x, float):
        return True
    if isinstance(x, int):
        return fits_float(x)
    if isinstance(x, str):
        try:
            float(x)
            return True
        except ValueError:
            return False
    return False


def is_number(x: Any) -> bool:
    return isinstance(x, float) or (isinstance(x, int) and not isinstance(x, bool) and fits_float(x))


def citation_kind(citations: Any) -> str:
    if citations is None:
        return "none"
    t = type(citations)
    if t is dict:  # the common ragtime case first: all real numbers
        values = citations.values()
        if all(type(v) is float or (type(v) is int and -_FLOAT_SAFE < v < _FLOAT_SAFE) for v in values):
            return "ragtime"
    elif (
        t is list
        and citations
        and all(type(c) is str for c in citations)
        and not any(c[:1] in "+-" or c[:1].isdigit() or c[:1].isspace() for c in citations)
    ):
        return "neuclir"
    if isinstance(citations, list):
        if not citations:
            return "empty"
        if all(isinstance(c, str) for c in citations):
            return "digits" if all(_INT_TEXT.match(c) for c in citations) else "neuclir"
        if all(is_int_like(c) for c in citations):
            return "rag24"
        return "invalid"
    if isinstance(citations, dict):
        return "ragtime_lax" if all(is_score_like(v) for v in citations.values()) else "ragtime_bad"
    return "invalid"


_PLAIN = frozenset(SHAPE_ORDER)


def resolve_shape(kinds: list[str]) -> str | None:
    """The one shape every sentence fits (first in SHAPE_ORDER), else None."""
    for shape in SHAPE_ORDER:
        if all(shape in _FITS[k] for k in kinds):
            return shape
    return None


def blank(text: Any) -> bool:
    return not (isinstance(text, str) and text.strip())


def str_id(value: Any) -> str | None:
    """A topic id as the reference model stores it: `narrative_id: str | int` takes what
    pydantic's lax int takes (true -> "1", 52.0 -> "52")."""
    if value is None or isinstance(value, (dict, list)):
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or (isinstance(value, float) and value.is_integer()):
        return str(int(value))
    return str(value)


@dataclass
class ReportView:
    value: JsonObject
    spec: TrackSpec | None
    request: TopicInfo | None = None
    findings: list[Finding] = field(default_factory=list)
    meta: JsonObject = field(default_factory=dict)
    meta_ptr: str = "/metadata"
    sentences: JsonArray | None = None
    sentences_ptr: str = "/responses"
    kinds: list[str] = field(default_factory=list)
    shape: str | None = None  # the report's sentence shape (None: shapes conflict)
    topic_id: str | None = None

    @classmethod
    def build(cls, value: JsonObject, spec: TrackSpec | None, request: TopicInfo | None = None) -> ReportView:
        view = cls(value, spec, request)
        if spec is not None and spec.layout == "flat":
            view.meta, view.meta_ptr = value, ""
        else:
            md = value.get("metadata")
            view.meta = md if isinstance(md, dict) else {}
        responses, answer = value.get("responses"), value.get("answer")
        if responses is not None:
            view.sentences, view.sentences_ptr = responses, "/responses"
        elif answer is not None:
            view.sentences, view.sentences_ptr = answer, "/answer"
        elif spec is not None:
            view.sentences_ptr = "/" + spec.sentences_key
        if not isinstance(view.sentences, list):
            view.sentences = None if view.sentences is None else []
        kinds = view.kinds = [
            citation_kind(s.get("citations")) if type(s) is dict else "none" for s in (view.sentences or [])
        ]
        first = kinds[0] if kinds else "none"
        # one plain shape throughout (the usual report) is its own answer
        view.shape = first if first in _PLAIN and kinds.count(first) == len(kinds) else resolve_shape(kinds)
        view.topic_id = view.resolve_topic_id()
        return view

    def resolve_topic_id(self) -> str | None:
        md = self.meta
        field_name = self.spec.topic_id_field if self.spec is not None else "topic_id"
        for key in (field_name, "topic_id", "narrative_id"):
            tid = str_id(md.get(key))
            if tid is not None:
                return tid
        return None

    def sentence_shape(self, i: int) -> str | None:
        """The shape sentence i is read as: the report's, or its own when shapes conflict."""
        if self.shape is not None:
            return self.shape
        return FAMILY.get(self.kinds[i])

    # --- reporting -------------------------------------------------------------------
    def add(
        self, code: str, message: str, *tokens: object, target: Target = Target.VALUE, **data: Any
    ) -> None:
        self.findings.append(reported(code, message, pointer_join(*tokens), target, self.topic_id, data))

    def sptr(self, i: int, *rest: object) -> PointerTokens:
        """Pointer tokens of sentence i (and below)."""
        return (self.sentences_ptr.lstrip("/"), i, *rest)

    def mtok(self, key: str) -> PointerTokens:
        return (key,) if self.meta_ptr == "" else ("metadata", key)

    def references(self) -> JsonArray | None:
        refs = self.value.get("references")
        return refs if isinstance(refs, list) else None

    def cited_ids(self, i: int) -> list[tuple[str, PointerTokens, Target]]:
        """(doc id, pointer tokens, target) of each token of sentence i that cites a doc."""
        s = self.sentences[i] if self.sentences else None
        if not isinstance(s, dict):
            return []
        cits = s.get("citations")
        shape = self.sentence_shape(i)
        out: list[tuple[str, PointerTokens, Target]] = []
        if shape == "rag24" and isinstance(cits, list):
            refs = self.references() or []
            for j, c in enumerate(cits):
                if (
                    isinstance(c, int)
                    and not isinstance(c, bool)
                    and 0 <= c < len(refs)
                    and isinstance(refs[c], str)
                ):
                    out.append((refs[c], self.sptr(i, "citations", j), Target.VALUE))
        elif shape == "neuclir" and isinstance(cits, list):
            out.extend(
                (c, self.sptr(i, "citations", j), Target.VALUE)
                for j, c in enumerate(cits)
                if isinstance(c, str)
            )
        elif shape == "ragtime" and isinstance(cits, dict):
            out.extend((d, self.sptr(i, "citations", d), Target.KEY) for d in cits)
        return out
