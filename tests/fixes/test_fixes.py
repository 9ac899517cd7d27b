"""Fixes as edits: each repair leaves the rest of the line untouched, and applying every
offered fix removes those findings without introducing new ones."""

import json
import random

import pytest

from citelens.check import Checker
from citelens.fixes.apply import fix_text
from citelens.source.edits import apply_edits
from citelens.specs import get_spec
from citelens.topics import parse_topics

UUID = "5f91a162-7a1e-4e5e-af0e-6b1bab774964_{}"
MARCO = "msmarco_v2.1_doc_{:02d}_{}#{}_{}"


def doc_id(spec, rng):
    if spec.startswith("ragtime"):
        return UUID.format(rng.randrange(10**6))
    if spec == "rag26":
        return f"shard_{rng.randrange(10**5):05d}_{rng.randrange(10**5)}"
    return MARCO.format(rng.randrange(60), rng.randrange(10**6), rng.randrange(9), rng.randrange(10**6))


def faulty_report(spec_id, i, rng, topics):
    spec = get_spec(spec_id)
    docs = [doc_id(spec_id, rng) for _ in range(5)]
    shape = rng.choice(spec.sentence_type)
    sentences = []
    for k in range(rng.randint(2, 5)):
        cited = rng.sample(docs, rng.randint(0, 3))
        if shape == "rag24":
            cits = [docs.index(d) for d in cited]
        elif shape == "ragtime":
            cits = {d: round(rng.random() * 10, 2) for d in cited}
        else:
            cits = cited
        sentences.append({"text": f"Sentence {k} about topic {i} with some words.", "citations": cits})
    tid = f"t{i}"
    md = {
        "team_id": "team",
        "run_id": "run",
        spec.topic_id_field: tid,
        "narrative": topics[tid],
        "type": "automatic",
        "use_starter_kit": 1,
        "run_desc": "d",
        "task": "english",
    }
    report = {"metadata": md, spec.sentences_key: sentences, "references": list(docs)}
    # seeded faults with a known repair
    fault = rng.choice(
        [
            "dup_ref",
            "bad_index",
            "undeclared",
            "too_many",
            "narrative",
            "int_id",
            "shape",
            "dup_key",
            "long",
            "none",
        ]
    )
    if fault == "dup_ref":
        report["references"].append(docs[0])
    elif fault == "bad_index" and shape == "rag24":
        sentences[0]["citations"] = [7, 0]
    elif fault == "undeclared" and shape != "rag24":
        report["references"] = docs[:2]
    elif fault == "too_many":
        sentences[0]["citations"] = (
            [0, 1, 2, 3]
            if shape == "rag24"
            else {d: 1.0 + j for j, d in enumerate(docs[:4])}
            if shape == "ragtime"
            else docs[:4]
        )
    elif fault == "narrative":
        md["narrative"] = "something else"
    elif fault == "int_id":
        md["run_id"] = 42
    elif fault == "shape" and len(spec.sentence_type) > 1:
        other = [t for t in ("rag24", "neuclir", "ragtime") if t != shape][0]
        sentences[-1]["citations"] = (
            {docs[1]: 0.5} if other == "ragtime" else [docs[1]] if other == "neuclir" else [1]
        )
    elif fault == "long":
        sentences.extend({"text": "word " * 300, "citations": []} for _ in range(6))
    text = json.dumps(report, ensure_ascii=False)
    if fault == "dup_key":
        text = text.replace('"team_id": "team"', '"team_id": "old", "team_id": "team"', 1)
    return text


@pytest.mark.parametrize(
    "spec_id", ["rag26", "rag25", "ragtime25", "ragtime26", "dragun25", "rag25-autojudge"]
)
def test_applying_every_fix_removes_those_findings_and_introduces_none(spec_id):
    rng = random.Random(spec_id)
    topics_text = "".join(f"t{i}\tTopic text {i}\n" for i in range(40))
    topics = parse_topics(topics_text)
    texts = {f"t{i}": f"Topic text {i}" for i in range(40)}
    text = "\n".join(faulty_report(spec_id, i, rng, texts) for i in range(40)) + "\n"
    checker = Checker(get_spec(spec_id), topics, fixes=True)
    before = checker.check_text(text)
    fixable = [f for f in before.findings if f.fix is not None]
    assert fixable, "the seeded faults should offer fixes"
    outcome = fix_text(text, checker, unsafe=True)
    after = outcome.result

    def key(r, f):
        return f.code, r.line_index.position(f.start)[0]

    before_keys = {key(before, f) for f in before.findings}
    introduced = [f for f in after.findings if key(after, f) not in before_keys]
    assert introduced == [], [(f.code, f.message) for f in introduced]
    assert [f for f in after.findings if f.fix is not None] == []
    assert len(after.findings) < len(before.findings)
    # every line is still one valid JSON report
    assert all(json.loads(l) for l in outcome.text.splitlines())


def test_fix_edits_leave_the_rest_of_the_line_byte_for_byte():
    spec = get_spec("rag26")
    value = {
        "metadata": {"team_id": "t", "narrative_id": "q1", "narrative": "n", "run_id": "r", "run_desc": "d"},
        "references": ["shard_00001_1", "shard_00002_2", "shard_00001_1"],
        "answer": [{"text": "Odd   spacing stays.", "citations": [2, 1]}],
    }
    text = json.dumps(value, indent=None, separators=(", ", ":"))
    [finding] = [
        f for f in Checker(spec, fixes=True).check_text(text).findings if f.code == "references_duplicate"
    ]
    fixed = apply_edits(text, finding.fix.edits)
    assert json.loads(fixed)["references"] == ["shard_00001_1", "shard_00002_2"]
    assert json.loads(fixed)["answer"][0]["citations"] == [0, 1]  # index 2 remapped to the first copy
    assert fixed.startswith(text[: text.index('"references"')])
    assert '"text":"Odd   spacing stays."' in fixed


def test_safe_fixes_do_not_change_content_unless_asked():
    spec = get_spec("rag26")
    value = {
        "metadata": {"team_id": "t", "narrative_id": "q1", "narrative": "n", "run_id": "r", "run_desc": "d"},
        "references": ["shard_00001_1"],
        "answer": [{"text": "w " * 1100, "citations": [0]}, {"text": "tail", "citations": [0]}],
    }
    text = json.dumps(value)
    safe = fix_text(text, Checker(spec, fixes=True))
    assert safe.text == text and not safe.changed
    unsafe = fix_text(text, Checker(spec, fixes=True), unsafe=True)
    # over 1024 words even with one sentence: dropping sentences cannot fix it, so nothing is offered
    assert not unsafe.changed


def test_length_fix_drops_trailing_sentences():
    tid = "msmarco_v2.1_doc_04_420132660"
    value = {
        "metadata": {
            "team_id": "t",
            "topic_id": tid,
            "run_id": "r",
            "type": "automatic",
            "use_starter_kit": 1,
        },
        "responses": [{"text": "w " * 200, "citations": []}, {"text": "x " * 100, "citations": []}],
    }
    text = json.dumps(value)
    checker = Checker(get_spec("dragun25"), fixes=True, overrides={"length": "error"})
    [f] = checker.check_text(text).findings
    assert f.code == "length" and f.fix.applicability == "unsafe"
    out = fix_text(text, checker, unsafe=True)
    assert len(json.loads(out.text)["responses"]) == 1 and out.result.findings == []
