"""``rlvr serve``: the rewards and the verifier as an HTTP service (see :mod:`rlvr.serve.app`)."""
