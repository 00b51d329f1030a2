"""Fake LookupTableChoices (torch 2.11 lookup_table/choices.py): the key
format "<str of ((dtype, shape, stride), ...)>+<op>" (device-agnostic) and
lookup_template_configs's grouping by template_id."""
import copy

from torch._inductor import config


class KernelInputs:
    def __init__(self, nodes):
        self.nodes = nodes        # [(dtype, shape, stride)]


class LookupTableChoices:
    def make_lookup_key(self, kernel_inputs, op_name, include_device=False):
        key = str(tuple((d, list(s), list(t)) for d, s, t in kernel_inputs.nodes))
        return ("FAKEGPU+" if include_device else "") + f"{key}+{op_name}"

    def make_lookup_key_variants(self, kernel_inputs, op_name):
        return (self.make_lookup_key(kernel_inputs, op_name, True),
                self.make_lookup_key(kernel_inputs, op_name, False))

    def lookup_template_configs(self, kernel_inputs, op_name, template_uids,
                                template_hash_map=None):
        table = config.lookup_table.table or {}
        found = []
        for key in self.make_lookup_key_variants(kernel_inputs, op_name):
            found = table.get(key, [])
            if found:
                break
        out = {}
        for cfg in found:
            if cfg["template_id"] in template_uids:
                c = copy.deepcopy(cfg)
                del c["template_id"]
                out.setdefault(cfg["template_id"], []).append(c)
        return out
