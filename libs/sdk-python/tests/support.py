"""Test helpers: the server under test (started by the npm test suite) and a fault-injecting proxy."""
import http.server
import json
import os
import threading
import time
import urllib.request
import uuid
from typing import Dict, List, Optional, Tuple

BASE_URL = os.environ.get("PLATFORM_BASE_URL")
ADMIN_TOKEN = os.environ.get("PLATFORM_ADMIN_TOKEN")


def require_server() -> Tuple[str, str]:
    if not BASE_URL or not ADMIN_TOKEN:
        raise RuntimeError("set PLATFORM_BASE_URL and PLATFORM_ADMIN_TOKEN (npm test does: test/sdk-python.e2e-spec.ts)")
    return BASE_URL, ADMIN_TOKEN


def create_account() -> Dict[str, str]:
    base, admin = require_server()
    request = urllib.request.Request(
        base + "/v1/admin/accounts",
        data=json.dumps({"email": f"py-{uuid.uuid4().hex[:8]}@example.com"}).encode(),
        method="POST",
        headers={"authorization": f"Bearer {admin}", "content-type": "application/json"},
    )
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


class FaultProxy:
    """Forwards to the server, except as `plan` says, one entry per request:
    'ok' forward; '429' answer 429 with Retry-After: 1 without forwarding;
    '500-after' forward, then throw the real answer away and answer 500."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.plan: List[str] = []
        self.seen: List[Tuple[float, str, str, Optional[str]]] = []
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def _handle(self):
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else None
                proxy.seen.append((time.time(), self.command, self.path, self.headers.get("idempotency-key")))
                step = proxy.plan.pop(0) if proxy.plan else "ok"
                if step == "429":
                    self._reply(429, {"error": True, "code": 429, "message": "Rate limit reached. Retry in 60 seconds."}, {"retry-after": "1"})
                    return
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length", "connection")}
                request = urllib.request.Request(proxy.upstream + self.path, data=body, method=self.command, headers=headers)
                try:
                    with urllib.request.urlopen(request) as response:
                        status, payload = response.status, response.read()
                except urllib.error.HTTPError as e:
                    status, payload = e.code, e.read()
                if step == "500-after":
                    self._reply(500, {"error": True, "code": 500, "message": "Internal error; try again later"})
                    return
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def _reply(self, status, body, headers=None):
                raw = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(raw)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(raw)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _handle

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Receiver:
    """A local webhook receiver that keeps the raw bodies and headers it got, and answers `status`."""

    def __init__(self) -> None:
        self.deliveries: List[Tuple[bytes, Dict[str, str]]] = []
        self.status = 200
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                receiver.deliveries.append((raw, {k.lower(): v for k, v in self.headers.items()}))
                self.send_response(receiver.status)
                self.send_header("content-length", "0")
                self.end_headers()

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait_for(self, count: int, timeout: float = 10.0) -> None:
        end = time.time() + timeout
        while len(self.deliveries) < count:
            if time.time() > end:
                raise AssertionError(f"expected {count} deliveries, got {len(self.deliveries)}")
            time.sleep(0.05)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
