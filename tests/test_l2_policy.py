"""l2_policy on the gluon backend: the KV tiles' TMA loads under an L2 cache
policy. Gluon's TMA copy (Triton 3.6) takes no cache hint, so a kernel marks
its PTX and the generated file's compile-stage hook rewrites the loads of a
kernel so marked. The rewrite is checked here on PTX in the form Triton 3.6
emits; tests/test_resources.py compiles a marked kernel for sm90 with Triton
3.6 and reads the hinted loads back from its SASS; only a Hopper GPU times
them (PERF.md)."""

import pytest

from generator.core.planner import build_plan
from generator.core.spec import parse_spec
from generator.gpu.harness import import_submission

from conftest import generated_source

SPEC = """target: {name: t, platform: cuda, fp8_format: e4m3fn}
shapes:
  - {batch: 64, kv_len: 1024, backend: gluon, splits: 2, l2_policy: evict_first}
  - {batch: 256, kv_len: 8192, backend: gluon, splits: 1, l2_policy: evict_last}
  - {batch: 4, kv_len: 1024, backend: gluon, splits: 16}
fallback: {backend: triton_split, splits: 4}
"""

# Two TMA loads as Triton 3.6 writes them for a gluon kernel (one under a
# predicate), and the mark _gl_mark_l2_policy leaves in the PTX.
LOADS = (
    "\t@%p2 cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes "
    "[%r69], [%rd1, {%r70, %r73, %r70}], [%r27];\n"
    "\tcp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes "
    "[%r71], [%rd2, {%r72, %r73}], [%r27];\n"
)
# a negated predicate (not in Triton 3.6's output, but PTX allows it)
NEGATED = ("\t@!%p7 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes "
           "[%r71], [%rd2, {%r72, %r73}], [%r27];\n")
MARK = "\t// begin inline asm\n\t// mla-l2-policy {}\n\tmov.b32 %r25, %r26;\n\t// end inline asm\n"


def consts(launch):
    return {c.name: c.value for c in launch.constexprs}


@pytest.fixture(scope="module")
def source():
    return generated_source(SPEC)


@pytest.fixture(scope="module")
def module(source):
    return import_submission(source)


def test_plan_passes_the_policy_to_each_kernel():
    plan = build_plan(parse_spec(SPEC, "t.yaml"))
    first, last, none = plan.runners
    assert consts(first.launches[0])["L2_POLICY"] == "evict_first"
    assert consts(last.launches[0])["L2_POLICY"] == "evict_last"
    assert consts(none.launches[0])["L2_POLICY"] == ""
    assert "KV loads evict-first in L2" in first.summary and "evict-last" in last.summary
    assert "L2" not in none.summary
    assert "re" in plan.stdlib


def test_a_file_without_the_field_has_no_hook():
    text = SPEC.replace(", l2_policy: evict_first", "").replace(", l2_policy: evict_last", "")
    source = generated_source(text)
    assert "re" not in build_plan(parse_spec(text, "t.yaml")).stdlib
    assert "knobs" not in source and "mla-l2-policy" not in source and "_gl_mark_l2_policy" not in source
    assert 'L2_POLICY=""' in source


def test_the_kernels_mark_their_ptx_only_when_asked(source):
    assert 'L2_POLICY="evict_first"' in source and 'L2_POLICY="evict_last"' in source
    assert 'if L2_POLICY != "":\n        _gl_mark_l2_policy(pid_b, L2_POLICY)' in source


@pytest.mark.parametrize("policy", ["evict_first", "evict_last"])
def test_marked_ptx_gets_every_tma_load_hinted(module, policy):
    ptx = ".entry k(\n" + MARK.format(policy) + LOADS + "\tret;\n"
    out = module._gl_l2_hinted(ptx)
    create = f"createpolicy.fractional.L2::{policy}.b64 %l2_policy, 1.0;"
    assert out.count(create) == 2 and out.count(".L2::cache_hint [") == 2
    # the predicate stays on the load, inside the block that declares the policy register
    assert ("{ .reg .b64 %l2_policy; " + create + " @%p2 cp.async.bulk.tensor.3d.shared::cluster.global"
            ".mbarrier::complete_tx::bytes.L2::cache_hint [%r69], [%rd1, {%r70, %r73, %r70}], [%r27], "
            "%l2_policy; }") in out
    assert ("{ .reg .b64 %l2_policy; " + create + " cp.async.bulk.tensor.2d.shared::cluster.global"
            ".mbarrier::complete_tx::bytes.L2::cache_hint [%r71], [%rd2, {%r72, %r73}], [%r27], "
            "%l2_policy; }") in out
    # a second pass (the hook installed twice) changes nothing
    assert module._gl_l2_hinted(out) == out


def test_a_negated_predicate_stays_on_its_load(module):
    out = module._gl_l2_hinted(".entry k(\n" + MARK.format("evict_first") + NEGATED)
    assert "\t{ .reg .b64 %l2_policy; createpolicy.fractional.L2::evict_first.b64 %l2_policy, 1.0; @!%p7 cp." in out


def test_unmarked_ptx_is_left_alone(module):
    ptx = ".entry k(\n" + LOADS + "\tret;\n"
    assert module._gl_l2_hinted(ptx) == ptx


def test_a_marked_kernel_without_tma_loads_is_an_error(module):
    # e.g. a Triton that writes its TMA loads in another form
    ptx = ".entry k(\n" + MARK.format("evict_first") + "\tcp.async.bulk.tensor.3d.shared::cta.global [x];\n"
    with pytest.raises(RuntimeError, match="l2_policy evict_first: no TMA load in the kernel's PTX"):
        module._gl_l2_hinted(ptx)


def test_the_hook_wraps_the_ptx_stage_once(module, source):
    from triton import knobs

    hook = knobs.runtime.add_stages_inspection_hook
    assert getattr(hook, "mla_l2_policy", False)
    # a second file (or the same one again) installs no second hook
    import_submission(source)
    assert knobs.runtime.add_stages_inspection_hook is hook
    marked = ".entry k(\n" + MARK.format("evict_last") + LOADS
    stages = {"llir": lambda src, metadata: src, "ptx": lambda src, metadata: marked}
    hook(None, stages, None, None, 90)
    assert stages["ptx"]("", {}).count("L2::evict_last") == 2
    # a backend without a PTX stage (AMD) is left as it is
    amd = {"llir": lambda src, metadata: src, "amdgcn": lambda src, metadata: src}
    hook(None, amd, None, None, None)
    assert set(amd) == {"llir", "amdgcn"}
