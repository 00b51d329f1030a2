"""Fake torch._logging: torch/_logging/__init__.py re-exports these names
from _internal, and torch/__init__.py calls _init_logs() at import."""
from ._internal import _init_logs, getArtifactLogger, set_logs  # noqa: F401
