"""A tiny ONNX cross-encoder and WordLevel tokenizer, built by the test that needs them (no
model can be downloaded here): it checks the nli judge's plumbing, not a model's accuracy.
Only the word "soil" pushes towards entailment, so a document chunk saying "soil" supports
a sentence and any other does not. Needs the `nli` extra (onnxruntime, tokenizers) and
`onnx`: the tests that use it skip without them."""

from __future__ import annotations

from pathlib import Path

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
    """The model folder (model.onnx, tokenizer.json, citelens.toml naming it "tiny")."""
    import numpy as np
    import onnx
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
