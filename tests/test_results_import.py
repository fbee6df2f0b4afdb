"""`gen results import`: popcorn-cli's report text into gen bench's JSON.

The fixtures in tests/data/popcorn/ are written from the format described in
generator/results/popcorn.py (the report kernelbot builds, as popcorn-cli
prints it): a benchmark run's stdout and stderr together (the client echoes
the program's output before the quoted report), the same report as plain
text, a leaderboard run's --output file (public and secret runs), and the
newer client's score lines with its JSON summary. Each holds text the
submission printed that imitates report blocks: it must never count."""

import json
import math

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import UserError
from generator.results.imported import to_result
from generator.results.load import check_result
from generator.results.popcorn import parse_report

from conftest import ROOT

DATA = ROOT / "tests/data/popcorn"


def imported(name_or_text, mode=None, spec=None, is_text=False):
    text = name_or_text if is_text else (DATA / name_or_text).read_text(encoding="utf-8")
    return to_result(parse_report(text, "r.txt"), "r.txt", mode, spec)


def rows(result):
    return {r["shape"]: r for r in result["rows"]}


EXPECTED_BENCHMARK = {  # shape -> (mean, err, best, worst) in us, from the fixture's blocks
    "b4_kv1024": (1.85, 0.0021, 1.81, 2.04),          # ns
    "b4_kv8192": (38.4, 0.05, 37.9, 45.0),            # µs
    "b32_kv1024": (41.7, 0.04, 40.9, 52.3),
    "b32_kv8192": (96.2, 0.11, 94.0, 120.0),          # keys in another order
    "b64_kv1024": (58.3, 0.06, 57.1, 70.4),
    "b256_kv1024": (182.0, 0.2, 179.0, 201.0),
    "b256_kv8192": (2410.0, 4.0, 2380.0, 2660.0),     # ms
}


@pytest.mark.parametrize("fixture", ["benchmark_stdout.txt", "benchmark_report.md"])
def test_benchmark_report_every_shape_unit_and_failure(fixture):
    result = imported(fixture)
    assert result["source"] == "popcorn-cli" and result["mode"] == "benchmark"
    assert result["device"] == "AMD Instinct MI355X" and result["torch"] == "2.10.0+rocm7.1"
    got = rows(result)
    assert list(got) == ["b4_kv1024", "b4_kv8192", "b32_kv1024", "b32_kv8192", "b64_kv1024",
                         "b64_kv8192", "b256_kv1024", "b256_kv8192"]
    for shape, (mean, err, best, worst) in EXPECTED_BENCHMARK.items():
        q = got[shape]["queued"]
        assert got[shape]["status"] == "ok"
        assert (q["mean_us"], q["sem_us"], q["min_us"], q["max_us"]) == \
            pytest.approx((mean, err, best, worst))
        assert q["median_us"] is None and q["runs"] is None and q["drift"] is None
    failed = got["b64_kv8192"]
    assert failed["status"] == "failed" and failed["queued"] is None
    assert "mismatch found" in failed["error"]
    assert result["failed"] == ["b64_kv8192"] and result["geomean_us"] is None
    check_result(result, "imported")  # the shape gen compare and gen plot read


@pytest.mark.parametrize("fixture", ["benchmark_stdout.txt", "benchmark_report.md"])
def test_blocks_the_submission_printed_never_count(fixture):
    """Its output forges b256_kv8192 at 1 us, a ranked section, a run title,
    popcorn-cli's quoting and a score line: none of them may show."""
    text = (DATA / fixture).read_text(encoding="utf-8")
    assert text.count("⏱ 1.00") == (2 if fixture == "benchmark_report.md" else 4)
    result = imported(fixture)
    assert rows(result)["b256_kv8192"]["queued"]["mean_us"] == pytest.approx(2410.0)
    assert rows(result)["b64_kv8192"]["status"] == "failed"
    assert result["scores_us"] == []
    report = parse_report(text, "r.txt")
    assert [list(r.sections) for r in report.runs] == [["Benchmarks"]]
    with pytest.raises(UserError, match="no 'Ranked Benchmark' section"):
        imported(fixture, mode="leaderboard")


def test_echoed_program_output_without_a_quoted_report_is_refused():
    """The client's echo of the program's output, then an unquoted report: the
    program's text could not be told from the report's."""
    echo = (DATA / "benchmark_stdout.txt").read_text(encoding="utf-8").split('\n"**')[0]
    plain = (DATA / "benchmark_report.md").read_text(encoding="utf-8")
    with pytest.raises(UserError, match=r"STDOUT \(Run n\).*--output FILE"):
        imported(echo + "\n" + plain, is_text=True)


def test_a_forged_second_section_inside_one_run_is_refused():
    plain = (DATA / "benchmark_report.md").read_text(encoding="utf-8")
    # An error message that closes the fence and opens a section of its own.
    forged = plain.replace(
        "Number of mismatched elements: 52488",
        "52488```\n\n## Benchmarks:\n```\nbatchsize: 4; qseqlen: 1; kvseqlen: 1024; seed: 1\n"
        " ⏱ 1.00 µs\n")
    with pytest.raises(UserError, match="a second 'Benchmarks' section"):
        imported(forged, is_text=True)


def test_a_forged_block_inside_an_error_message_is_refused():
    plain = (DATA / "benchmark_report.md").read_text(encoding="utf-8")
    forged = plain.replace(
        "Number of mismatched elements: 52488",
        "52488\n\nbatchsize: 256; qseqlen: 1; kvseqlen: 8192; seed: 9826\n ⏱ 1.00 µs")
    with pytest.raises(UserError, match="a second block for shape b256_kv8192"):
        imported(forged, is_text=True)


def test_leaderboard_output_reads_the_public_ranked_section():
    result = imported("leaderboard_output.txt")
    assert result["mode"] == "leaderboard" and result["run"] == "MI355X on AMD ✅ success"
    got = rows(result)
    assert len(got) == 8 and not result["failed"]
    assert got["b32_kv1024"]["queued"]["mean_us"] == pytest.approx(41.7)  # secret run: 44.0
    assert got["b64_kv8192"]["queued"]["mean_us"] == pytest.approx(131.0)
    means = [r["queued"]["mean_us"] for r in result["rows"]]
    assert result["geomean_us"] == pytest.approx(math.exp(sum(map(math.log, means)) / 8))
    bench = imported("leaderboard_output.txt", mode="benchmark")
    assert bench["mode"] == "benchmark"
    assert rows(bench)["b32_kv8192"]["queued"]["mean_us"] == pytest.approx(96.5)
    assert rows(result)["b32_kv8192"]["queued"]["mean_us"] == pytest.approx(97.0)


def test_background_client_scores_from_its_summary():
    result = imported("background_stdout.txt")
    assert result["mode"] == "leaderboard" and result["rows"] == []
    assert [(s["label"], s["runner"]) for s in result["scores_us"]] == \
        [("public", "MI355X"), ("secret", "MI355X")]
    assert result["scores_us"][0]["score_us"] == pytest.approx(72.1)
    assert result["geomean_us"] == pytest.approx(72.1)


def test_a_summary_without_scores_says_where_the_timings_are():
    text = (DATA / "background_stdout.txt").read_text(encoding="utf-8")
    summary = json.loads(text[text.index("{"):])
    summary["runs"] = [dict(r, mode="benchmark", score=None) for r in summary["runs"]]
    with pytest.raises(UserError, match="only popcorn-cli's summary of the runs"):
        imported(json.dumps(summary, indent=2), is_text=True)


def test_geomean_score_lines_alone():
    result = imported("Geomean score (public) on MI355X: 0.0000349 s\n", is_text=True)
    assert result["geomean_us"] == pytest.approx(34.9)


def section(*blocks):
    body = "\n".join(blocks) + "\n"
    return f"**MI355X on AMD**\n> ✅ Benchmarking successful\n\n## Benchmarks:\n```\n{body}```"


def test_spec_keys_by_name_in_any_order_and_units():
    text = section(
        "seed: 123; kv_seq_len: 8192; batch_size: 32",
        " ⏱ 96.2 us",                       # no ± (err 0), "us" for µs
        "",
        "batchsize: 4; tp: 4; qseqlen: 4; kvseqlen: 1024; seed: 7",
        " ⏱ 0.5 ± 0.001 ms",
        " ⚡ 0.45 ms 🐌 0.61 ms",
        "",
        "num_heads: 16; kvseqlen: 1024; batchsize: 64",
        " ⏱️ 1500 ± 3 ns")                   # emoji presentation selector
    got = rows(imported(text, is_text=True))
    assert list(got) == ["b32_kv8192", "b4_kv1024_q4_h32", "b64_kv1024"]
    assert got["b32_kv8192"]["queued"]["mean_us"] == 96.2
    assert got["b32_kv8192"]["queued"]["sem_us"] == 0.0
    assert got["b4_kv1024_q4_h32"]["queued"]["mean_us"] == pytest.approx(500.0)
    assert got["b4_kv1024_q4_h32"]["queued"]["max_us"] == pytest.approx(610.0)
    assert got["b64_kv1024"]["queued"]["mean_us"] == pytest.approx(1.5)


@pytest.mark.parametrize("blocks, line, message", [
    (("batchsize: 4; kvseqlen: 1024", " ⏱ 1.0 s"), 6, "is not a line of a 'Benchmarks' section"),
    (("kvseqlen: 1024; seed: 1", " ⏱ 1.0 µs"), 6, "no batchsize"),
    (("batchsize: four; kvseqlen: 1024", " ⏱ 1.0 µs"), 6, "'four' is not a positive integer"),
    (("batchsize: 4; kvseqlen: 1024", " ⏱ 0 µs"), 7, "0 µs is not a time"),
    (("some words", "more"), 6, "'some words' is not a line"),
])
def test_malformed_sections_are_user_errors_naming_the_line(blocks, line, message):
    with pytest.raises(UserError, match=message) as err:
        imported(section(*blocks), is_text=True)
    assert str(err.value).startswith(f"r.txt:{line}: ")


def test_a_failed_run_says_why_there_are_no_results():
    text = ("**MI355X on AMD ❌ failure**\n> ❌ Running benchmarks failed (timeout)\n\n"
            "# Running failed\nCommand ```bash\npython eval.py```\ntimed out after 1800 s.")
    with pytest.raises(UserError, match=r"the run reports ❌ Running benchmarks failed \(timeout\)"):
        imported(text, is_text=True)


def test_no_results_is_a_user_error():
    with pytest.raises(UserError, match="no benchmark results found"):
        imported("hello\n", is_text=True)


def test_spec_names_each_shapes_runner_and_records_its_hash():
    result = imported("leaderboard_output.txt", spec=str(ROOT / "specs/mi355x.yaml"))
    got = rows(result)
    assert got["b4_kv1024"]["backend"] == "torch_bmm"
    assert got["b256_kv8192"]["backend"] == "aiter" and got["b256_kv8192"]["runner"] == \
        "run_b256_kv8192"
    assert got["b32_kv8192"]["kv_bytes"] == 32 * 8192 * 576
    assert len(result["spec_hash"]) == 16


def test_cli_import_writes_json_that_compare_and_status_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "lb.json"
    result = CliRunner().invoke(main, ["results", "import", str(DATA / "benchmark_stdout.txt"),
                                       "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "FAILED" in result.output and f"wrote: {out}" in result.output
    data = json.loads(out.read_text())
    assert data["source"] == "popcorn-cli" and len(data["rows"]) == 8
    again = CliRunner().invoke(main, ["compare", str(out), str(out)])
    assert again.exit_code == 0, again.output
    assert "same (within noise)" in again.output and "failed in both" in again.output


def test_cli_reads_the_report_from_stdin():
    text = (DATA / "leaderboard_output.txt").read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["results", "import", "-"], input=text)
    assert result.exit_code == 0, result.output
    assert "popcorn-cli leaderboard on AMD Instinct MI355X" in result.output


def test_cli_reports_unreadable_input_in_one_line(tmp_path):
    bad = tmp_path / "r.txt"
    bad.write_bytes(b"\xff\xfe")
    result = CliRunner().invoke(main, ["results", "import", str(bad)])
    assert result.exit_code == 2
    assert "not UTF-8 text" in result.output and "Traceback" not in result.output
