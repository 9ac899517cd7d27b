"""Seeded run files with seeded faults, for every track spec and all three citation shapes.

`generate_run(spec_id, n, seed)` returns the lines of a JSONL run written for that track
(right topic field, sentence key, doc-id syntax, reference policy, length unit) and the
topics (requests) it answers. About a third of the reports are clean; the others carry
one to three faults from FAULTS: everything the track rules look at (metadata, run_id,
doc ids, indices, scores, citation counts and shapes, references, lengths at and over the
limit, blank and empty answers, topic coverage and narratives) plus the type corners
where pydantic coerces, and lines the reference cannot load at all (wrong types, missing
text, broken JSON). `fault_free=True` gives a clean run (for the benchmark).

Used by tests/agreement and by bench/generate_runs.py (`python bench/generate_runs.py`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from citelens.specs import get_spec

from .vocabulary import docid, docid_style, text


def _topic_ids(spec_id: str, style: str, n: int, rng: random.Random) -> list[str]:
    if spec_id.startswith("rag26"):
        return [f"rag2026-{i}" for i in range(n)]
    if spec_id.startswith("ragtime"):
        return [str(2000 + i) for i in range(n)]
    if spec_id.startswith("dragun"):
        return [docid(rng, "msmarco").split("#")[0] for _ in range(n)]
    if spec_id == "kiddie":
        return [f"kid-{i}" for i in range(n)]
    return [str(i + 1) for i in range(n)]


# --- one clean report -------------------------------------------------------------


class Context:
    """What one generated report is built from (and what faults may change)."""

    def __init__(self, rng: random.Random, spec, topic: dict, team: str, run_id: str):
        self.rng, self.spec, self.topic = rng, spec, topic
        self.team, self.run_id = team, run_id
        self.style = docid_style(spec)
        self.shape = rng.choice(spec.sentence_type)
        self.unit = spec.length_unit
        self.limit = spec.length_limit if spec.length_limit is not None else topic.get("limit")
        self.pool = [docid(rng, self.style) for _ in range(rng.randint(3, 10))]


def _metadata(ctx: Context) -> dict:
    spec, rng = ctx.spec, ctx.rng
    md: dict[str, Any] = {}
    values = {
        "team_id": ctx.team,
        "run_id": ctx.run_id,
        "narrative": ctx.topic["title"],
        "run_desc": "BM25 top-20, Llama-3 summariser",
        "type": rng.choice(["automatic", "manual"]),
        "use_starter_kit": rng.choice([0, 1]),
        "task": rng.choice(["english", "multilingual"]),
    }
    for key in spec.mandatory_metadata + spec.recommended_metadata:
        if key in ("topic_id", "narrative_id"):
            md[key] = ctx.topic["request_id"]
        else:
            md[key] = values.get(key, "x")
    md.setdefault(spec.topic_id_field, ctx.topic["request_id"])
    if rng.random() < 0.1:
        md["collection_ids"] = list(spec.collection_ids or ["c"])
    return md


def _sentence_budget(ctx: Context, n_sent: int) -> list[int]:
    """Words per sentence, keeping a clean report under the limit."""
    words = [ctx.rng.randint(3, 25) for _ in range(n_sent)]
    if ctx.limit is not None:
        cap = ctx.limit if ctx.unit == "words" else ctx.limit // 9
        while sum(words) > max(cap - n_sent, 1) and max(words) > 1:
            i = words.index(max(words))
            words[i] = max(1, words[i] // 2)
    return words


def _citations(ctx: Context, refs: list[str], shape: str | None = None) -> Any:
    rng = ctx.rng
    shape = shape or ctx.shape
    maxc = ctx.spec.max_citations_per_sentence or 4
    k = rng.randint(0, min(maxc, len(ctx.pool)))
    docs = rng.sample(ctx.pool, k)
    if shape == "neuclir":
        return docs
    if shape == "ragtime":
        return {d: rng.choice([1.0, 0.5, 0.25, 3, 0]) for d in docs}
    for d in docs:
        if d not in refs:
            refs.append(d)
    return [refs.index(d) for d in docs]


def _cited(value: dict, key: str) -> list[str]:
    refs = value.get("references") or []
    out: list[str] = []
    for s in value.get(key) or []:
        c = s.get("citations") if isinstance(s, dict) else None
        if isinstance(c, dict):
            out.extend(c)
        elif isinstance(c, list):
            out.extend(
                refs[i] if isinstance(i, int) and 0 <= i < len(refs) else i
                for i in c
                if isinstance(i, (int, str))
            )
    return [d for d in out if isinstance(d, str)]


def clean_report(ctx: Context) -> dict:
    spec, rng = ctx.spec, ctx.rng
    key = spec.sentences_key
    refs: list[str] = []
    sentences = []
    for words in _sentence_budget(ctx, rng.randint(1, 6)):
        s: dict[str, Any] = {"text": text(rng, words)}
        if rng.random() < 0.93:
            s["citations"] = _citations(ctx, refs)
        sentences.append(s)
    value: dict[str, Any] = {"metadata": _metadata(ctx), key: sentences}
    if ctx.shape == "rag24" or spec.references_kind in ("cited_only", "retrieval_list"):
        cited = list(dict.fromkeys(_cited({"references": refs, key: sentences}, key)))
        refs = refs if ctx.shape == "rag24" else cited
        if spec.references_kind == "retrieval_list" and rng.random() < 0.5:
            refs = refs + [d for d in ctx.pool if d not in refs][: rng.randint(0, 3)]
        value["references"] = refs
    elif spec.references_kind == "ignore" and rng.random() < 0.5:
        value["references"] = list(dict.fromkeys(_cited({"references": refs, key: sentences}, key)))
    if ctx.spec.track == "kiddie" and rng.random() < 0.3:
        value["documents"] = {d: {"id": d, "text": f"About {d}.", "title": d} for d in ctx.pool[:2]}
    return value


# --- faults -----------------------------------------------------------------------
# each takes (ctx, report value) and changes the value in place (or returns a new one)

Fault = Callable[[Context, dict], Any]


def _sents(v: dict) -> list:
    s = v.get("responses") if v.get("responses") is not None else v.get("answer")
    return s if isinstance(s, list) else []


def _skey(v: dict) -> str:
    return "responses" if "responses" in v else "answer"


def _any_sentence(ctx: Context, v: dict) -> dict | None:
    s = [x for x in _sents(v) if isinstance(x, dict)]
    return ctx.rng.choice(s) if s else None


def _meta(v: dict) -> dict:
    md = v.get("metadata")
    return md if isinstance(md, dict) else {}


def f_meta_missing(ctx, v):
    md = _meta(v)
    keys = [k for k in ctx.spec.mandatory_metadata + ctx.spec.recommended_metadata if k in md]
    if keys:
        del md[ctx.rng.choice(keys)]


def f_meta_empty(ctx, v):
    md = _meta(v)
    keys = [k for k in ctx.spec.mandatory_metadata + ctx.spec.recommended_metadata if k in md]
    if keys:
        md[ctx.rng.choice(keys)] = ctx.rng.choice(["", "  ", None, "\t"])


def f_run_id_long(ctx, v):
    n = (ctx.spec.run_id_max_len or 20) + ctx.rng.choice([0, 1, 5, 30])
    _meta(v)["run_id"] = ("run-" + "x" * n)[:n]


def f_ids_wrong_type(ctx, v):
    key = ctx.rng.choice(["team_id", "run_id", "topic_id"])
    _meta(v)[key] = ctx.rng.choice([7, 7.5, ["a"], True])


def f_topic_variants(ctx, v):
    md, rng, tid = _meta(v), ctx.rng, ctx.topic["request_id"]
    choice = rng.choice(["int", "float", "bool", "alias", "both", "conflict", "request_id", "none"])
    for k in ("topic_id", "narrative_id"):
        md.pop(k, None)
    if choice == "int":
        md["narrative_id"] = int(tid) if tid.isdigit() else rng.randint(1, 9)
    elif choice == "float":
        md["narrative_id"] = float(int(tid)) if tid.isdigit() else 3.0
    elif choice == "bool":
        md[rng.choice(["narrative_id", "topic_id"])] = True
    elif choice == "alias":
        md["topic_id" if ctx.spec.topic_id_field == "narrative_id" else "narrative_id"] = tid
    elif choice == "both":
        md["topic_id"] = md["narrative_id"] = tid
    elif choice == "conflict":
        md["topic_id"], md["narrative_id"] = tid, tid + "x"
    elif choice == "request_id":
        md[ctx.spec.topic_id_field], md["request_id"] = tid, "stale"
    # "none": no topic id at all


def f_extra_metadata(ctx, v):
    md = _meta(v)
    md[ctx.rng.choice(["prompt", "notes", "description"])] = "extra"
    if ctx.rng.random() < 0.3:
        md["task"] = ctx.rng.choice(["english", "rag", "multilingual", "bogus", None])
    if ctx.rng.random() < 0.3:
        md["limit"] = ctx.rng.choice([500, "500", 500.0, 500.5, "x"])
    if ctx.rng.random() < 0.3:
        md["use_starter_kit"] = ctx.rng.choice([0, 1, True, "1", 1.0, "yes", 2])


def f_docid_bad(ctx, v):
    bad = ctx.rng.choice(["doc-123", "", "msmarco_doc_1", "shard_x_1", "5f91a162_1", " " + ctx.pool[0]])
    _replace_cited(ctx, v, bad)


def f_docid_prefix(ctx, v):
    _replace_cited(ctx, v, ctx.pool[0] + ctx.rng.choice(["junk", "#p1", "_extra", " "]))


def _replace_cited(ctx, v, doc):
    s = _any_sentence(ctx, v)
    if s is None:
        return
    c = s.get("citations")
    refs = v.get("references")
    if isinstance(c, dict):
        s["citations"] = {**c, doc: 0.5}
    elif isinstance(c, list) and c and isinstance(c[0], int) and isinstance(refs, list):
        refs.append(doc)
        c.append(len(refs) - 1)
    elif isinstance(c, list):
        c.append(doc)
    else:
        s["citations"] = [doc]
    if isinstance(refs, list) and doc not in refs and ctx.rng.random() < 0.7:
        refs.append(doc)


def f_index_odd(ctx, v):
    s = _any_sentence(ctx, v)
    refs = v.setdefault("references", list(ctx.pool[:2]))
    if s is None or not isinstance(refs, list):
        return
    n = len(refs)
    bad = ctx.rng.choice([n, n + 3, -1, 1.0, 0.0, "1", "0", True, False, 1.5, 10**20, "x", None])
    c = s.get("citations")
    if isinstance(c, list) and (not c or all(isinstance(i, int) for i in c)):
        c.append(bad)
    else:
        s["citations"] = [0, bad] if n else [bad]


def f_score_odd(ctx, v):
    s = _any_sentence(ctx, v)
    if s is None:
        return
    c = s.get("citations")
    bad = ctx.rng.choice(["0.5", "1", True, False, None, "high", 1e308, -3, 10**30, [1]])
    if isinstance(c, dict) and c:
        c[ctx.rng.choice(list(c))] = bad
    else:
        s["citations"] = {ctx.pool[0]: bad}


def f_too_many_citations(ctx, v):
    s = _any_sentence(ctx, v)
    if s is None:
        return
    k = min(len(ctx.pool), (ctx.spec.max_citations_per_sentence or 3) + ctx.rng.randint(1, 3))
    docs = ctx.pool[:k]
    c = s.get("citations")
    if isinstance(c, dict):
        s["citations"] = {d: 1.0 for d in docs}
    elif isinstance(c, list) and c and isinstance(c[0], int):
        refs = v.get("references") if isinstance(v.get("references"), list) else []
        for d in docs:
            if d not in refs:
                refs.append(d)
        v["references"] = refs
        s["citations"] = [refs.index(d) for d in docs]
    else:
        s["citations"] = list(docs)


def f_refs_duplicate(ctx, v):
    refs = v.get("references")
    if isinstance(refs, list) and refs:
        refs.insert(ctx.rng.randrange(len(refs) + 1), ctx.rng.choice(refs))
    else:
        v["references"] = [ctx.pool[0], ctx.pool[0]]


def f_refs_uncited(ctx, v):
    refs = v.get("references")
    extra = [d for d in ctx.pool if d not in _cited(v, _skey(v))] or [docid(ctx.rng, ctx.style)]
    if isinstance(refs, list):
        refs.append(ctx.rng.choice(extra))
    else:
        v["references"] = [ctx.rng.choice(extra)]


def f_refs_undeclared(ctx, v):
    refs = v.get("references")
    cited = _cited(v, _skey(v))
    if isinstance(refs, list) and cited:
        doc = ctx.rng.choice(cited)
        v["references"] = (
            [r for r in refs if r != doc]
            if not any(
                isinstance(s, dict)
                and isinstance(s.get("citations"), list)
                and s["citations"]
                and isinstance(s["citations"][0], int)
                for s in _sents(v)
            )
            else refs
        )
    else:
        s = _any_sentence(ctx, v)
        if s is not None and not isinstance(s.get("citations"), dict):
            s["citations"] = [docid(ctx.rng, ctx.style)]


def f_refs_odd(ctx, v):
    choice = ctx.rng.choice(["delete", "empty", "null", "over_max", "nonstr", "string"])
    if choice == "delete":
        v.pop("references", None)
    elif choice == "empty":
        v["references"] = []
    elif choice == "null":
        v["references"] = None
    elif choice == "over_max":
        refs = v.get("references") if isinstance(v.get("references"), list) else []
        v["references"] = refs + [
            docid(ctx.rng, ctx.style) for _ in range(101 - len(refs) + ctx.rng.randint(0, 3))
        ]
    elif choice == "nonstr":
        v["references"] = [1, 2]
    else:
        v["references"] = ctx.pool[0]


def f_length(ctx, v):
    """Answer at, just over, or far over the limit (words or NFKC chars)."""
    limit = ctx.limit if ctx.limit is not None else ctx.rng.choice([250, 400, 1024])
    target = limit + ctx.rng.choice([0, 1, 2, 50])
    sents = _sents(v)
    if not sents or not isinstance(sents[0], dict):
        return
    n = len(sents)
    if ctx.unit == "words":
        per = max(1, target // n)
        for s in sents:
            if isinstance(s, dict):
                s["text"] = text(ctx.rng, per)
        extra = target - per * n
        if extra > 0 and isinstance(sents[-1], dict):
            sents[-1]["text"] += " " + text(ctx.rng, extra)
    else:
        # chars: n-1 joining spaces; "ﬁ" is one char raw but two after NFKC
        body = max(1, target - (n - 1))
        filler = "ﬁ" if ctx.rng.random() < 0.3 else "a"
        raw = (filler * body) if filler == "a" else ("a" * (body % 2) + filler * (body // 2))
        per = max(1, len(raw) // n)
        for i, s in enumerate(sents):
            if isinstance(s, dict):
                s["text"] = raw[i * per : (i + 1) * per] if i < n - 1 else raw[i * per :]
                if not s["text"].strip():
                    s["text"] = "b"


def f_blank_sentence(ctx, v):
    s = _any_sentence(ctx, v)
    if s is not None:
        if ctx.rng.random() < 0.2:
            s.pop("text", None)
        else:
            s["text"] = ctx.rng.choice(["", " ", "\n\t", "\u3000"])


def f_empty_answer(ctx, v):
    key = _skey(v)
    choice = ctx.rng.choice(["empty", "all_blank", "missing", "null"])
    if choice == "empty":
        v[key] = []
    elif choice == "all_blank":
        for s in _sents(v):
            if isinstance(s, dict):
                s["text"] = ctx.rng.choice(["", "  "])
    elif choice == "missing":
        v.pop(key, None)
    else:
        v[key] = None


def f_sentence_key(ctx, v):
    key = _skey(v)
    if key not in v:
        return
    other = "answer" if key == "responses" else "responses"
    if ctx.rng.random() < 0.7:
        v[other] = v.pop(key)
    else:
        v[other] = ctx.rng.choice([[], [{"text": "other list", "citations": []}], None])


def f_wrong_shape(ctx, v):
    shapes = [s for s in ("rag24", "ragtime", "neuclir") if s not in ctx.spec.sentence_type] or [
        "rag24",
        "ragtime",
    ]
    shape = ctx.rng.choice(shapes)
    refs = v.get("references") if isinstance(v.get("references"), list) else []
    for s in _sents(v):
        if isinstance(s, dict):
            s["citations"] = _citations(ctx, refs, shape)
    if shape == "rag24":
        v["references"] = refs


def f_mixed_shapes(ctx, v):
    sents = [s for s in _sents(v) if isinstance(s, dict)]
    refs = v.get("references") if isinstance(v.get("references"), list) else []
    if sents:
        sents[-1]["citations"] = _citations(ctx, refs, ctx.rng.choice(["rag24", "ragtime", "neuclir"]))
        v["references"] = refs


def f_citations_odd(ctx, v):
    s = _any_sentence(ctx, v)
    if s is None:
        return
    choice = ctx.rng.choice(["null", "absent", "empty_list", "empty_dict", "string", "number", "mixed_list"])
    if choice == "absent":
        s.pop("citations", None)
    else:
        s["citations"] = {
            "null": None,
            "empty_list": [],
            "empty_dict": {},
            "string": ctx.pool[0],
            "number": 3,
            "mixed_list": [ctx.pool[0], 0],
        }[choice]


def f_unloadable(ctx, v):
    choice = ctx.rng.choice(
        [
            "text_int",
            "sentence_str",
            "sentence_meta",
            "metadata_list",
            "metadata_missing",
            "is_ragtime",
            "evaldata",
            "documents_bad",
            "documents_good",
            "ranking_bad",
            "ranking_good",
            "root_array",
            "root_string",
            "path",
        ]
    )
    s = _any_sentence(ctx, v)
    if choice == "text_int" and s is not None:
        s["text"] = 5
    elif choice == "sentence_str":
        sents = _sents(v)
        if sents:
            sents[0] = "a bare string"
    elif choice == "sentence_meta" and s is not None:
        s["metadata"] = "x"
    elif choice == "metadata_list":
        v["metadata"] = [1]
    elif choice == "metadata_missing":
        v.pop("metadata", None)
    elif choice == "is_ragtime":
        v["is_ragtime"] = ctx.rng.choice(["yes", "maybe", 1, 2, 0.0, None, "TRUE"])
    elif choice == "evaldata":
        v["evaldata"] = ctx.rng.choice(["x", {}, None, [1]])
    elif choice == "documents_bad":
        v["documents"] = ctx.rng.choice(
            [{"d": {"text": "no id"}}, {"d": "str"}, {"d": {"id": 1, "text": "t"}}, [1]]
        )
    elif choice == "documents_good":
        v["documents"] = {"d": {"id": "d", "text": "t", "extra": 1}}
    elif choice == "ranking_bad":
        v["ranking"] = ctx.rng.choice([[{"doc_id": "d"}], [1], {"a": 1}, [{"doc_id": "d", "rank": "x"}]])
    elif choice == "ranking_good":
        v["ranking"] = ctx.rng.choice(
            [[{"doc_id": "d", "rank": 1}], [{"query_id": "q", "test_collection": "c", "ranked_docs": []}], []]
        )
    elif choice == "path":
        v["path"] = ctx.rng.choice(["runs/r1.jsonl", 5, None, ["a"]])
    elif choice == "root_array":
        return [v]
    elif choice == "root_string":
        return "report"
    return None


FAULTS: dict[str, tuple[Fault, float]] = {
    "meta_missing": (f_meta_missing, 1.0),
    "meta_empty": (f_meta_empty, 1.0),
    "run_id_long": (f_run_id_long, 0.7),
    "ids_wrong_type": (f_ids_wrong_type, 0.3),
    "topic_variants": (f_topic_variants, 1.0),
    "extra_metadata": (f_extra_metadata, 0.7),
    "docid_bad": (f_docid_bad, 1.0),
    "docid_prefix": (f_docid_prefix, 1.0),
    "index_odd": (f_index_odd, 1.0),
    "score_odd": (f_score_odd, 0.8),
    "too_many_citations": (f_too_many_citations, 1.0),
    "refs_duplicate": (f_refs_duplicate, 1.0),
    "refs_uncited": (f_refs_uncited, 1.0),
    "refs_undeclared": (f_refs_undeclared, 1.0),
    "refs_odd": (f_refs_odd, 1.0),
    "length": (f_length, 1.2),
    "blank_sentence": (f_blank_sentence, 1.0),
    "empty_answer": (f_empty_answer, 0.6),
    "sentence_key": (f_sentence_key, 0.5),
    "wrong_shape": (f_wrong_shape, 0.8),
    "mixed_shapes": (f_mixed_shapes, 0.6),
    "citations_odd": (f_citations_odd, 0.8),
    "unloadable": (f_unloadable, 0.8),
}

#: faults written into the JSON text itself (after serialisation)
TEXT_FAULTS = ("broken_json", "duplicate_key", "nan_score", "huge_number", "trailing_garbage", "bom_like")


def _text_fault(rng: random.Random, line: str, kind: str) -> str:
    if kind == "broken_json":
        return line[: rng.randrange(1, max(2, len(line) - 1))]
    if kind == "duplicate_key":
        return line.replace('"metadata": {', '"metadata": {"run_id": "dup", ', 1)
    if kind == "nan_score":
        return line.replace("1.0", rng.choice(["NaN", "Infinity", "-Infinity"]), 1)
    if kind == "huge_number":
        return line.replace("0.5", rng.choice(["1e400", "-1e400", "9" * 400]), 1)
    if kind == "trailing_garbage":
        return line + rng.choice([" x", "}", ",", " {}"])
    return "\ufeff" + line


# --- whole runs -------------------------------------------------------------------


def make_topics(spec_id: str, n: int, rng: random.Random) -> list[dict]:
    spec = get_spec(spec_id)
    ids = _topic_ids(spec_id, docid_style(spec), n, rng)
    topics = []
    for tid in ids:
        t = {"request_id": tid, "title": text(rng, rng.randint(4, 14)).replace("\n", " ").replace("\t", " ")}
        if spec.length_limit_request_field:
            t["limit"] = rng.choice([300, 500, 1000, 2000, 2000, None])  # None: a request without a limit
        topics.append(t)
    return topics


def generate_run(
    spec_id: str,
    n: int,
    seed: int,
    *,
    fault_free: bool = False,
    loadable_faults_only: bool = False,
    faulty_share: float = 0.65,
    most_faults: int = 3,
) -> tuple[list[str], list[dict]]:
    """(lines, topics) of a run of about `n` reports for `spec_id`.

    `fault_free`: every report is clean and covers its own topic once.
    `loadable_faults_only`: no faults in the JSON text itself (the benchmark then drops
    the lines the reference cannot load, since its CLI aborts on the first one).
    `faulty_share`, `most_faults`: the share of reports given faults, and how many each
    gets at most (the defaults keep every seed's run as it always was).
    """
    rng = random.Random(f"{spec_id}:{n}:{seed}")
    spec = get_spec(spec_id)
    topics = make_topics(spec_id, n, rng)
    team = rng.choice(["team-a", "BiTeM (HES-SO Geneva)", "h2oloo"])
    run_id = ("run-" + rng.choice(["bm25", "e2e-omt", "gpt"]))[: spec.run_id_max_len or 40]
    names = list(FAULTS)
    weights = [FAULTS[k][1] for k in names]
    lines: list[str] = []
    covered = topics if fault_free else [t for t in topics if rng.random() > 0.03]
    for i, topic in enumerate(covered):
        if not fault_free and rng.random() < 0.03:  # a topic outside the topics file
            topic = {
                "request_id": topic["request_id"] + "-new",
                "title": topic["title"],
                "limit": topic.get("limit"),
            }
        elif not fault_free and rng.random() < 0.03 and i:  # a second report for a topic
            topic = rng.choice(covered[:i])
        ctx = Context(rng, spec, topic, team, run_id)
        value: Any = clean_report(ctx)
        applied: list[str] = []
        if not fault_free and rng.random() > 1 - faulty_share:
            for name in rng.choices(names, weights, k=rng.randint(1, most_faults)):
                new = FAULTS[name][0](ctx, value)
                applied.append(name)
                if new is not None:
                    value = new
                    break
            if isinstance(value, dict) and rng.random() < 0.05:  # wrong narrative
                md = _meta(value)
                md["narrative"] = rng.choice([topic["title"] + " ", topic["title"].upper(), "", "other"])
        line = json.dumps(value, ensure_ascii=rng.random() < 0.5)
        if not fault_free and not loadable_faults_only and rng.random() < 0.04:
            line = _text_fault(rng, line, rng.choice(TEXT_FAULTS))
        lines.append(line)
    return lines, topics


def topics_jsonl(topics: list[dict]) -> str:
    return "".join(
        json.dumps({k: v for k, v in t.items() if v is not None}, ensure_ascii=False) + "\n" for t in topics
    )
