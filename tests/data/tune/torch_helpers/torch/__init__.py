"""A stand-in torch with no GPU: just what tko's tune worker asks of it."""
__version__ = "0.0-test-helpers"


class cuda:  # noqa: N801 (the torch.cuda namespace)
    @staticmethod
    def is_available():
        return False


class version:  # noqa: N801
    hip = None
