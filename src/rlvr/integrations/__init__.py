"""rlvr rewards inside other trainers' calling conventions; no framework is imported at rlvr import time."""
