"""``rlvr serve``: run the reward server under uvicorn, with the connection guards of
:mod:`rlvr.serve.protocol` and the port bound here (a port taken or a host unknown is one line).
SIGTERM drains the requests in flight; the exit status is 0 when the drain finished and
:data:`rlvr.serve.drain.CUT_SHORT` when it was cut short."""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import socket
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
        from rlvr.files import read_text

        path = Path(args.token_file).expanduser()
        if not path.is_file():
            raise ConfigError(f"--token-file {args.token_file} does not exist")
        token = read_text(str(path), "--token-file", max_bytes=4096).strip()
        if not token:
            raise ConfigError(f"--token-file {args.token_file} is empty")
        return token
    return os.environ.get("RLVR_SERVE_TOKEN") or None


def _listen(host: str, port: int) -> socket.socket:
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
    except OSError as exc:
        raise ConfigError(f"--host {host}: not an address this machine can listen on ({exc})") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def serve_command(args: argparse.Namespace) -> int:
    """Serve the rewards of ``--rewards`` (default: math_equivalence) until SIGTERM/SIGINT."""
    try:
        import uvicorn
    except ImportError:
        raise DependencyMissingError("rlvr serve needs the server extra: pip install 'rlvr[serve]'") from None
    from rlvr.serve.app import Limits, create_app
    from rlvr.serve.drain import CUT_SHORT, DrainingServer
    from rlvr.serve.logs import RepeatFilter
    from rlvr.serve.protocol import guarded_protocol

    token = _token(args)
    if token is None and not _loopback(args.host) and not args.insecure:
        raise ConfigError(f"refusing to serve on {args.host} without a token: set RLVR_SERVE_TOKEN or --token-file, "
                          "or pass --insecure on a trusted network")
    limits = Limits(max_rows=args.max_rows, max_body_bytes=args.max_body_mb * 1024 * 1024,
                    max_buffered_bytes=max(4, args.max_concurrent + 2) * args.max_body_mb * 1024 * 1024,
                    deadline_s=args.deadline_s, max_concurrent=args.max_concurrent, max_queue=args.max_queue)
    app = create_app(args.rewards, token=token, limits=limits, verifier_config=args.verifier_config)
    sock = _listen(args.host, args.port)
    # uvicorn warns once per malformed request ("Invalid HTTP request received."), before any token check
    logging.getLogger("uvicorn.error").addFilter(RepeatFilter())
    config = uvicorn.Config(app, http=guarded_protocol(args.header_timeout_s, args.max_connections),
                            timeout_keep_alive=args.idle_timeout_s, access_log=False, log_level="warning",
                            lifespan="on", timeout_graceful_shutdown=int(args.deadline_s) + 1)  # SIGTERM drains
    logger.info("serving %s on http://%s:%d (token %s)", args.rewards or "math_equivalence", args.host,
                sock.getsockname()[1], "required" if token else "off")
    with sock:
        DrainingServer(config).run(sockets=[sock])
    if not app.state.drain.finished:  # the lifespan logged why (or never ended: a forced exit)
        return CUT_SHORT
    return 0
