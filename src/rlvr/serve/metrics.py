"""Prometheus text metrics of the reward server.

Requests (by endpoint and code) and their latency histogram; statuses returned; the time scoring
calls took (wall) and the CPU the server process spent in them (reading completions and the rules
decided without the sandbox: the reader's time while it runs in process); gauges read at each
scrape: queue depth, calls in flight, slots stuck past their deadline, sandbox worker restarts
(killed at a budget or died, and replaced), and the bytes the verifier's caches hold.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable

__all__ = ["Metrics"]

_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Metrics:
    """Counters kept in process and rendered in the Prometheus exposition format."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.requests: Counter[tuple[str, int]] = Counter()
        self.buckets: dict[str, list[int]] = {}
        self.sums: Counter[str] = Counter()
        self.counts: Counter[str] = Counter()
        self.statuses: Counter[str] = Counter()
        self.inflight = 0
        self.queue_depth = 0
        self.stuck = 0
        self.worker_restarts = 0
        self.cache_bytes: dict[str, int] = {}
        self.scoring_seconds: Counter[str] = Counter()
        self.scoring_cpu_seconds: Counter[str] = Counter()

    def observe(self, endpoint: str, code: int, seconds: float) -> None:
        with self._lock:
            self.requests[(endpoint, code)] += 1
            buckets = self.buckets.setdefault(endpoint, [0] * len(_BUCKETS))
            for i, bound in enumerate(_BUCKETS):
                if seconds <= bound:
                    buckets[i] += 1
            self.sums[endpoint] += seconds
            self.counts[endpoint] += 1

    def scoring(self, endpoint: str, wall_s: float, cpu_s: float) -> None:
        """One scoring call's wall time and the CPU time of its thread in this process."""
        with self._lock:
            self.scoring_seconds[endpoint] += wall_s
            self.scoring_cpu_seconds[endpoint] += cpu_s

    def count_statuses(self, statuses: Iterable[str]) -> None:
        with self._lock:
            self.statuses.update(statuses)

    def render(self) -> str:
        with self._lock:
            lines = ["# HELP rlvr_requests_total Requests by endpoint and HTTP status.",
                     "# TYPE rlvr_requests_total counter"]
            lines += [f'rlvr_requests_total{{endpoint="{e}",code="{c}"}} {n}' for (e, c), n in sorted(self.requests.items())]
            lines += ["# HELP rlvr_request_seconds Request latency.", "# TYPE rlvr_request_seconds histogram"]
            for endpoint, buckets in sorted(self.buckets.items()):
                for bound, n in zip(_BUCKETS, buckets):
                    lines.append(f'rlvr_request_seconds_bucket{{endpoint="{endpoint}",le="{bound}"}} {n}')
                lines.append(f'rlvr_request_seconds_bucket{{endpoint="{endpoint}",le="+Inf"}} {self.counts[endpoint]}')
                lines.append(f'rlvr_request_seconds_sum{{endpoint="{endpoint}"}} {self.sums[endpoint]:.6f}')
                lines.append(f'rlvr_request_seconds_count{{endpoint="{endpoint}"}} {self.counts[endpoint]}')
            lines += ["# HELP rlvr_verdicts_total Reward and verifier statuses returned.",
                      "# TYPE rlvr_verdicts_total counter"]
            lines += [f'rlvr_verdicts_total{{status="{s}"}} {n}' for s, n in sorted(self.statuses.items())]
            lines += ["# HELP rlvr_verifier_timeouts_total Comparisons that ran past the sandbox time limit.",
                      "# TYPE rlvr_verifier_timeouts_total counter", f"rlvr_verifier_timeouts_total {self.statuses['timeout']}",
                      "# TYPE rlvr_inflight gauge", f"rlvr_inflight {self.inflight}",
                      "# TYPE rlvr_queue_depth gauge", f"rlvr_queue_depth {self.queue_depth}",
                      "# HELP rlvr_stuck_slots Scoring slots held by a call running past its deadline and grace.",
                      "# TYPE rlvr_stuck_slots gauge", f"rlvr_stuck_slots {self.stuck}",
                      "# HELP rlvr_worker_restarts_total Sandbox workers killed (at a budget or deadline) or dead, "
                      "and replaced.",
                      "# TYPE rlvr_worker_restarts_total counter", f"rlvr_worker_restarts_total {self.worker_restarts}",
                      "# HELP rlvr_cache_bytes Bytes held by each of the verifier's caches.",
                      "# TYPE rlvr_cache_bytes gauge"]
            lines += [f'rlvr_cache_bytes{{cache="{name}"}} {n}' for name, n in sorted(self.cache_bytes.items())]
            lines += ["# HELP rlvr_scoring_seconds_total Wall time of scoring calls.",
                      "# TYPE rlvr_scoring_seconds_total counter"]
            lines += [f'rlvr_scoring_seconds_total{{endpoint="{e}"}} {s:.6f}' for e, s in sorted(self.scoring_seconds.items())]
            lines += ["# HELP rlvr_scoring_cpu_seconds_total CPU time of scoring calls in the server process "
                      "(reading completions, rules decided without the sandbox; the workers' CPU is not counted).",
                      "# TYPE rlvr_scoring_cpu_seconds_total counter"]
            lines += [f'rlvr_scoring_cpu_seconds_total{{endpoint="{e}"}} {s:.6f}'
                      for e, s in sorted(self.scoring_cpu_seconds.items())]
        return "\n".join(lines) + "\n"
