"""What a GPU says about itself, raw: the facts tko's C side decides from.

torch.cuda.get_device_properties() names an NVIDIA GPU by its marketing
name and, on CUDA builds, fills gcnArchName with that same name; on ROCm
and DTK gcnArchName is the processor with feature suffixes
("gfx942:sramecc+:xnack-"). Which of these is the architecture is tko's
decision, made once in C (src/target/target.c, target_gpu_arch): this
module reports what torch says and normalises nothing. Used by tko.probe
(tko env), tko.capture (events.jsonl's session_start) and the tune worker
(its hello); the worker imports it as a plain module, the others as part of
the tko package.
"""


def facts(props, hip):
    """{"name", "backend", "gcn_arch_name", "capability", "warp_size",
    "multiprocessor_count"} of one device's properties; `hip` is
    torch.version.hip (None on CUDA builds)."""
    return {"name": props.name, "backend": "hip" if hip else "cuda",
            "gcn_arch_name": getattr(props, "gcnArchName", None) or None,
            "capability": [props.major, props.minor],
            "warp_size": getattr(props, "warp_size", None),
            "multiprocessor_count": props.multi_processor_count}
