"""Baselines `gen bench` times beside a build, on the same inputs, the same way.

torch: naive bf16 batched matmuls with a float32 softmax (equal lengths only).
flashinfer: FlashInfer's MLA decode (its Hopper fa3 kernel) on the bf16 KV,
the fastest public MLA decode kernel we could run on an H200; an optional extra
(`pip install .[flashinfer]`). Its planner syncs and costs 150-320 us, so, as
a serving system would, it is planned once per shape outside the timed call;
its paged caches (512 latent + 64 rope columns, page size 64) are laid out
once from the task's bf16 KV, also untimed.
"""

from __future__ import annotations

from generator.core.contract import KV_LORA, QK_DIM

BASELINES = ("torch", "flashinfer")
FLASHINFER_PAGE = 64
_WORKSPACE_BYTES = 128 << 20


def naive_torch(data):
    """bf16 batched matmuls and float32 softmax; equal lengths, q_seq_len 1."""
    import torch

    q, kv_data, _, _, config = data
    batch, kv_len = config["batch_size"], config["kv_seq_len"]
    kv = kv_data["bf16"].view(batch, kv_len, QK_DIM)
    scores = torch.bmm(q.view(batch, -1, QK_DIM), kv.transpose(1, 2)).float() * config["sm_scale"]
    return torch.bmm(torch.softmax(scores, dim=-1).to(torch.bfloat16), kv[:, :, :KV_LORA])


def flashinfer_available() -> str | None:
    """None if FlashInfer can be imported, else why not."""
    try:
        import flashinfer.mla  # noqa: F401
    except Exception as exc:  # noqa: BLE001 - any import failure means "not available"
        return f"{type(exc).__name__}: {exc}"
    return None


class FlashInferMLA:
    """One shape's FlashInfer MLA decode: planned once, then `run(data)` per call."""

    def __init__(self, data):
        import flashinfer
        import torch

        q, kv_data, qo_indptr, _, config = data
        batch, kv_len = config["batch_size"], config["kv_seq_len"]
        if kv_len % FLASHINFER_PAGE or config["q_seq_len"] != 1:
            raise ValueError(f"flashinfer baseline needs kv_len % {FLASHINFER_PAGE} == 0 and "
                             f"q_seq_len 1 (got {kv_len}, {config['q_seq_len']})")
        device = q.device
        self.workspace = torch.empty(_WORKSPACE_BYTES, dtype=torch.int8, device=device)
        self.wrapper = flashinfer.mla.BatchMLAPagedAttentionWrapper(self.workspace, backend="fa3")
        pages = kv_len // FLASHINFER_PAGE
        self.wrapper.plan(
            qo_indptr,
            torch.arange(batch + 1, dtype=torch.int32, device=device) * pages,
            torch.arange(batch * pages, dtype=torch.int32, device=device),
            torch.full((batch,), kv_len, dtype=torch.int32, device=device),
            config["num_heads"], KV_LORA, QK_DIM - KV_LORA, FLASHINFER_PAGE, False,
            config["sm_scale"], torch.bfloat16, torch.bfloat16,
        )
        self.layout(data)

    def layout(self, data):
        """FlashInfer's own cache layout and split Q, from the task's tensors (untimed)."""
        q, kv_data = data[0], data[1]
        kv = kv_data["bf16"].reshape(-1, QK_DIM)
        self.ckv = kv[:, :KV_LORA].contiguous().view(-1, FLASHINFER_PAGE, KV_LORA)
        self.kpe = kv[:, KV_LORA:].contiguous().view(-1, FLASHINFER_PAGE, QK_DIM - KV_LORA)
        self.q_nope = q[..., :KV_LORA].contiguous()
        self.q_pe = q[..., KV_LORA:].contiguous()

    def run(self):
        return self.wrapper.run(self.q_nope, self.q_pe, self.ckv, self.kpe)
