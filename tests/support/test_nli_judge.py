"""The nli judge with a tiny ONNX cross-encoder and a WordLevel tokenizer built by the test
(no model can be downloaded here, so this checks the plumbing, not a model's accuracy):
loading, chunking the premise so that it fits, the maximum over chunks, and the check."""

from __future__ import annotations

from pathlib import Path

import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
tokenizers = pytest.importorskip("tokenizers")

from citelens.support import Verdict  # noqa: E402
from citelens.support.errors import JudgeError  # noqa: E402
from citelens.support.nli import NLIBackend  # noqa: E402
from tests.helpers.judge_runs import check_support, cited_verdicts, write_run  # noqa: E402

WORDS = [
    "[UNK]",
    "[CLS]",
    "[SEP]",
    "worms",
    "live",
    "underground",
    "in",
    "soil",
    "the",
    "bees",
    "make",
    "honey",
    ".",
]
#: per token, its push towards (entailment, neutral, contradiction): only "soil" entails
ENTAILS = {"soil": (20.0, 0.0, 0.0)}


def build_model(folder: Path, max_length: int = 16) -> Path:
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

    folder.mkdir(parents=True, exist_ok=True)
    weights = np.array([ENTAILS.get(w, (0.0, 1.0, 0.0)) for w in WORDS], dtype=np.float32)
    graph = helper.make_graph(
        [
            helper.make_node("Gather", ["W", "input_ids"], ["embedded"]),
            helper.make_node("Cast", ["attention_mask"], ["mask_f"], to=TensorProto.FLOAT),
            helper.make_node("Unsqueeze", ["mask_f", "axis2"], ["mask3"]),
            helper.make_node("Mul", ["embedded", "mask3"], ["masked"]),
            helper.make_node("ReduceSum", ["masked", "axis1"], ["logits"], keepdims=0),
        ],
        "tiny-nli",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, [1, None]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, [1, None]),
        ],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 3])],
        initializer=[
            numpy_helper.from_array(weights, "W"),
            numpy_helper.from_array(np.array([2], dtype=np.int64), "axis2"),
            numpy_helper.from_array(np.array([1], dtype=np.int64), "axis1"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(folder / "model.onnx"))
    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="[UNK]"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B [SEP]", special_tokens=[("[CLS]", 1), ("[SEP]", 2)]
    )
    tok.save(str(folder / "tokenizer.json"))
    (folder / "citelens.toml").write_text(
        f'name = "tiny"\nlabels = ["entailment", "neutral", "contradiction"]\nmax_length = {max_length}\n'
    )
    return folder


SENTENCE = "Worms live underground."
# six sentences; only the last one says "soil": past the model's 16 tokens
LONG = " ".join(["Bees make honey."] * 5 + ["Worms live in the soil."])


def test_the_document_is_cut_into_chunks_that_fit_and_the_best_chunk_decides(tmp_path) -> None:
    nli = NLIBackend.load(build_model(tmp_path / "m"))
    chunks = nli.chunks(SENTENCE, LONG)
    assert len(chunks) > 1 and chunks[-1].endswith("Worms live in the soil.")
    assert all(nli._length(c) + nli._length(SENTENCE) + 4 <= 16 for c in chunks)
    verdict, answer = nli.judge(SENTENCE, LONG)
    assert verdict is Verdict.SUPPORTED and float(answer.split()[1]) > 0.99
    # the first chunk alone (what truncating the pair to the model's length would keep) says no
    assert nli.judge(SENTENCE, chunks[0])[0] is Verdict.UNSUPPORTED
    assert nli.id == "nli:tiny"


def test_a_folder_without_the_model_is_a_clear_error(tmp_path) -> None:
    with pytest.raises(JudgeError, match=r"model\.onnx and tokenizer\.json"):
        NLIBackend.load(tmp_path)
    folder = build_model(tmp_path / "m")
    (folder / "citelens.toml").write_text('labels = ["yes", "no"]\n')
    with pytest.raises(JudgeError, match="entailment"):
        NLIBackend.load(folder)


def test_check_with_the_nli_judge(tmp_path, capsys) -> None:
    folder = build_model(tmp_path / "m")
    run = write_run(
        tmp_path, [(SENTENCE, ["D1"]), ("Bees make honey.", ["D2"])], {"D1": LONG, "D2": "Bees make honey."}
    )
    _code, out, _err = check_support(
        capsys, run, "nli", "--nli-model", str(folder), "--support-cache", "none"
    )
    assert [(c["judge"], c["verdict"]) for c in cited_verdicts(out)] == [
        ("nli:tiny", "supported"),
        ("nli:tiny", "unsupported"),
    ]
