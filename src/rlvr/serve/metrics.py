"""Prometheus text metrics of the reward server: requests, latency histogram, statuses, queue depth."""

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

    def observe(self, endpoint: str, code: int, seconds: float) -> None:
        with self._lock:
            self.requests[(endpoint, code)] += 1
            buckets = self.buckets.setdefault(endpoint, [0] * len(_BUCKETS))
            for i, bound in enumerate(_BUCKETS):
                if seconds <= bound:
                    buckets[i] += 1
            self.sums[endpoint] += seconds
            self.counts[endpoint] += 1

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
                      "# TYPE rlvr_queue_depth gauge", f"rlvr_queue_depth {self.queue_depth}"]
        return "\n".join(lines) + "\n"
