"""The nli judge with a tiny ONNX cross-encoder and a WordLevel tokenizer built by the test
(no model can be downloaded here, so this checks the plumbing, not a model's accuracy):
loading, chunking the premise so that it fits, the maximum over chunks, and the check."""

from __future__ import annotations

import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
pytest.importorskip("tokenizers")

from citelens.support import Verdict
from citelens.support.errors import JudgeError
from citelens.support.nli import NLIBackend
from tests.helpers.judge_runs import check_support, cited_verdicts, write_run
from tests.helpers.nli_model import LONG, SENTENCE, build_model


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


def test_a_model_is_loaded_once_until_its_files_change(tmp_path) -> None:
    """An editor judges one citation at a time: the second judgement must not load the
    model again, and a replaced model must not be judged with the old one."""
    import os

    folder = build_model(tmp_path / "m")
    first, second = NLIBackend.load(folder), NLIBackend.load(folder)
    assert second.session is first.session and second.cancel is not first.cancel
    model = folder / "model.onnx"
    st = model.stat()
    os.utime(model, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    assert NLIBackend.load(folder).session is not first.session
