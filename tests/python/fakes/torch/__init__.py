"""Fake torch for tko's capture tests: a Tensor type that is not a real
tensor, so any snapshot attempt fails inside tko (and must not reach the
"model")."""
__version__ = "0.0-fake"


class Tensor:
    def __init__(self, n):
        self.n = n

    @property
    def shape(self):
        return (self.n,)

    def stride(self):
        return (1,)

    @property
    def dtype(self):
        return "float32"
