"""``rlvr serve``: run the reward server under uvicorn."""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
from pathlib import Path

from rlvr.errors import ConfigError, DependencyMissingError

logger = logging.getLogger(__name__)


def _loopback(host: str) -> bool:
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _token(args: argparse.Namespace) -> str | None:
    if args.token_file:
        path = Path(args.token_file).expanduser()
        if not path.is_file():
            raise ConfigError(f"--token-file {args.token_file} does not exist")
        token = path.read_text(encoding="utf-8").strip()
        if not token:
            raise ConfigError(f"--token-file {args.token_file} is empty")
        return token
    return os.environ.get("RLVR_SERVE_TOKEN") or None


def serve_command(args: argparse.Namespace) -> int:
    """Serve the rewards of ``--rewards`` (default: math_equivalence) until SIGTERM/SIGINT."""
    try:
        import uvicorn
    except ImportError:
        raise DependencyMissingError("rlvr serve needs the server extra: pip install 'rlvr[serve]'") from None
    from rlvr.serve.app import Limits, create_app

    token = _token(args)
    if token is None and not _loopback(args.host) and not args.insecure:
        raise ConfigError(f"refusing to serve on {args.host} without a token: set RLVR_SERVE_TOKEN or --token-file, "
                          "or pass --insecure on a trusted network")
    limits = Limits(max_rows=args.max_rows, max_body_bytes=args.max_body_mb * 1024 * 1024,
                    deadline_s=args.deadline_s, max_concurrent=args.max_concurrent, max_queue=args.max_queue)
    app = create_app(args.rewards, token=token, limits=limits)
    logger.info("serving %s on http://%s:%d (token %s)", args.rewards or "math_equivalence", args.host, args.port,
                "required" if token else "off")
    uvicorn.run(app, host=args.host, port=args.port, workers=1, log_level="warning",
                timeout_graceful_shutdown=int(args.deadline_s))  # SIGTERM drains in-flight requests
    return 0
