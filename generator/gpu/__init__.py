"""What runs a generated file: inputs, references, check, bench (torch, triton)."""
