"""`gen compare` and `gen plot` on stored results, offline: no GPU, no torch.
A malformed or non-finite result is one clear user error, and no noise
estimate hides a large change."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import UserError
from generator.results.compare import NOISE_CAP, changes, compare, noise_us
from generator.results.load import load_result

from conftest import ROOT

RUN = ROOT / "tests/data/runs/h200_bench.json"  # a gen bench --json run on the H200, 8 shapes
LEADERBOARD = ROOT / "tests/data/popcorn/leaderboard_output.txt"


def gen(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.output


def result_file(tmp_path, name, rows, **extra):
    path = tmp_path / name
    path.write_text(json.dumps({"rows": rows, **extra}))
    return path


def row(shape, mean, sem=0.05, drift=0.0):
    return {"shape": shape, "queued": {"mean_us": mean, "sem_us": sem, "drift": drift}}


def test_a_stored_run_against_itself_is_the_same_everywhere():
    run = load_result(RUN)
    assert len(compare(run, run)) == 8
    assert all(line.endswith("same (within noise)") for line in compare(run, run))


def test_a_5x_slowdown_is_a_regression_however_noisy_the_files_say_they_are():
    old = {"rows": [row("a", 100.0, sem=40.0, drift=3.0)]}
    new = {"rows": [row("a", 500.0, sem=200.0, drift=5.0)]}
    assert noise_us(old["rows"][0]["queued"], new["rows"][0]["queued"]) == NOISE_CAP * 100.0
    assert compare(new, old) == ["a: 100.00 -> 500.00 us (+400.0%, noise ±50.0%): REGRESSION"]
    assert compare(old, new)[0].endswith("improvement")


def test_absent_spreads_count_as_zero_and_failed_shapes_are_named():
    old = {"rows": [row("a", 100.0), row("b", 10.0), {"shape": "c", "status": "failed",
                                                      "queued": None}]}
    new = {"rows": [{"shape": "a", "queued": {"mean_us": 101.0, "sem_us": None, "drift": None}},
                    {"shape": "b", "status": "failed", "queued": None}, row("c", 5.0),
                    row("d", 1.0)]}
    verdicts = {c.shape: c.verdict for c in changes(new, old)}
    assert verdicts == {"a": "same", "b": "FAILED in the new result",
                        "c": "failed in the old result, passes in the new",
                        "d": "only in the new result"}


@pytest.mark.parametrize("rows, message", [
    ([row("a", float("nan"))], r"rows\[0\] \(a\)\.queued\.mean_us: nan is not a finite number"),
    ([row("a", float("inf"))], "inf is not a finite number"),
    ([row("a", 0.0)], "mean_us: 0.0 is not a time"),
    ([row("a", -3.0)], "mean_us: -3.0 is not a time"),
    ([row("a", 1.0, sem=-1.0)], "sem_us: -1.0 is negative"),
    ([row("a", 1.0, drift=float("nan"))], "drift: nan is not a finite number"),
    ([{"shape": "a", "queued": {"sem_us": 1.0}}], "mean_us: missing"),
    ([row("a", 1.0), row("a", 2.0)], "a second row for the same shape"),
    ([{"queued": {}}], r"rows\[0\]: not a row"),
])
def test_unusable_numbers_are_one_user_error_naming_row_and_field(tmp_path, rows, message):
    bad = result_file(tmp_path, "bad.json", rows)
    good = result_file(tmp_path, "good.json", [row("a", 1.0)])
    with pytest.raises(UserError, match=message):
        load_result(bad)
    code, out = gen("compare", good, bad)
    assert code == 2 and "error:" in out and "internal error" not in out


@pytest.mark.parametrize("text, message", [
    ("{\"rows\": [", "bad.json:1: not JSON"),
    ("[{\"case\": \"b4_kv1024\"}]", "a `gen check --json` file"),
    ("{\"spec\": \"x\"}", "not a timing result"),
])
def test_malformed_files_are_user_errors(tmp_path, text, message):
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    code, out = gen("compare", bad, RUN)
    assert code == 2 and message in out and "Traceback" not in out


def test_missing_file_is_a_user_error(tmp_path):
    code, out = gen("compare", tmp_path / "none.json", RUN)
    assert code == 2 and "cannot read" in out


def test_cli_compares_a_leaderboard_import_with_a_local_run(tmp_path):
    lb = tmp_path / "lb.json"
    assert gen("results", "import", LEADERBOARD, "--json", lb)[0] == 0
    code, out = gen("compare", RUN, lb)
    assert code == 0, out
    assert "b256_kv8192" in out and "REGRESSION" in out
    assert "geomean over the 8 shapes both timed" in out


def test_compare_and_plot_need_no_torch(tmp_path):
    """Both run on a machine without torch (the base install)."""
    out = tmp_path / "run.svg"
    code = ("import sys; sys.modules['torch'] = None; sys.modules['triton'] = None\n"
            "from generator.cli import main\n"
            "sys.argv = ['gen'] + sys.argv[1:]; main()")
    proc = subprocess.run([sys.executable, "-c", code, "compare", str(RUN), str(RUN)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "same (within noise)" in proc.stdout
    pytest.importorskip("matplotlib")
    proc = subprocess.run([sys.executable, "-c", code, "plot", str(RUN), "-o", str(out)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert b"<svg" in out.read_bytes()


@pytest.mark.parametrize("ext", ["png", "svg"])
def test_plot_an_imported_report_with_a_failed_shape(tmp_path, ext):
    pytest.importorskip("matplotlib")
    lb = tmp_path / "lb.json"
    bench = ROOT / "tests/data/popcorn/benchmark_stdout.txt"
    assert gen("results", "import", bench, "--json", lb)[0] == 0
    out = tmp_path / f"lb.{ext}"
    code, text = gen("plot", lb, "-o", out)
    assert code == 0, text
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG") if ext == "png" else b"<svg" in data
    if ext == "svg":
        svg = data.decode()
        assert "b256_kv8192" in svg and "failed" in svg and "popcorn-cli" in svg


def test_plot_default_output_and_format_check(tmp_path):
    pytest.importorskip("matplotlib")
    run = tmp_path / "run.json"
    run.write_text(RUN.read_text())
    code, out = gen("plot", run)
    assert code == 0 and (tmp_path / "run.png").is_file(), out
    code, out = gen("plot", run, "-o", tmp_path / "run.pdf")
    assert code == 2 and "one of .png, .svg" in out


def test_plot_of_scores_only_says_there_is_nothing_to_draw(tmp_path):
    pytest.importorskip("matplotlib")
    lb = tmp_path / "lb.json"
    assert gen("results", "import", ROOT / "tests/data/popcorn/background_stdout.txt",
               "--json", lb)[0] == 0
    code, out = gen("plot", lb)
    assert code == 2 and "no per-shape timing" in out
