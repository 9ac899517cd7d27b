"""`citelens convert RUN --to S` writes, line for line, the JSON value autojudge-base 1.0.0
gives for `submission_dict(convert(report, S), S)`, for every spec pair they share."""

import json

import pytest

from citelens.cli import main
from tests.helpers.reference_oracle import SAMPLES, SHARED_SPECS, reference

RUNS = sorted(p for p in SAMPLES.glob("*.jsonl") if "topics" not in p.name and "rag24" not in p.name)


@pytest.mark.parametrize("target", SHARED_SPECS)
def test_cli_conversion_matches_the_reference_line_for_line(target, capsys):
    ref = reference()
    compared = 0
    for run_file in RUNS:
        code = main(["convert", str(run_file), "--to", target, "--quiet"])
        out, _ = capsys.readouterr()
        assert code == 0, run_file
        ours = [json.loads(l) for l in out.splitlines()]
        lines = [l for l in run_file.read_text(encoding="utf-8").splitlines() if l.strip()]
        expected = []
        for line in lines:
            report = ref.report.Report.model_validate(json.loads(line))
            expected.append(ref.report.submission_dict(ref.report.convert(report, target), target))
        assert ours == json.loads(json.dumps(expected)), (run_file.name, target)
        compared += len(lines)
    assert compared > 60
