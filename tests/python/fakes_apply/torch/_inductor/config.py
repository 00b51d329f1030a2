"""The torch 2.11 Inductor settings tko.apply reads or sets (config.py:209,
:772, :1332, :1787, :2438-2446)."""
import os

online_softmax = os.environ.get("TORCHINDUCTOR_ONLINE_SOFTMAX", "1") == "1"
coordinate_descent_tuning = os.environ.get("TORCHINDUCTOR_COORDINATE_DESCENT_TUNING") == "1"
inductor_choices_class = None
autotune_lookup_table: dict = {}


class triton:  # noqa: N801
    mix_order_reduction_split_size = None


class lookup_table:  # noqa: N801
    table = None
    check_src_hash = True
