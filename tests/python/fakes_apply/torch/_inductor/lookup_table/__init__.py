from .choices import LookupTableChoices

__all__ = ["LookupTableChoices"]
