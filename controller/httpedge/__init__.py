"""The HTTP edge the hub and the federation serve through (docs/security.md, "One client
against a server"): what a connection may hold before the app sees a request.

uvicorn alone waits for ever for a request's headers and body and takes every connection it is
offered; one address holding a thousand half-sent requests used to take every file a server
may open (the federation's log grew 724 MB in 3 minutes, a traceback per refused ``accept``).
Here each connection is counted from the moment it is accepted (before its TLS handshake), one
address may hold a share of them only, a request must arrive whole within a deadline, and what
is refused is said once a minute with a count. ``guard`` is the protocol, ``quiet`` the log,
``serve`` the uvicorn configuration and the file limit.

The simulator has the same defences in its own ``controller/sim/guard.py``; one edge for the
three servers is the house's (docs/architecture.md).
"""

from .guard import EdgeLimits, GuardedProtocol
from .serve import edge_config, raise_file_limit

__all__ = ["EdgeLimits", "GuardedProtocol", "edge_config", "raise_file_limit"]
