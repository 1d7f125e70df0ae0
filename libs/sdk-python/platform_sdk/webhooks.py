"""Webhook signatures: `x-service-signature: t=<unix>,v1=<hex>[,v1=<hex>]`, where each hex is
HMAC-SHA256(secret, f"{t}.{raw_body}") — Stripe's scheme, the same as the server's libs/webhook-signature."""
from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any, Dict, Optional, Sequence, Union


class WebhookVerificationError(Exception):
    """The delivery is not authentic, or too old."""


def _bytes(raw_body: Union[bytes, str]) -> bytes:
    return raw_body.encode("utf-8") if isinstance(raw_body, str) else raw_body


def sign(secret: str, timestamp: int, raw_body: Union[bytes, str]) -> str:
    """Lowercase hex HMAC-SHA256 of `{timestamp}.{raw_body}`."""
    message = str(timestamp).encode("ascii") + b"." + _bytes(raw_body)
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def signature_header(secrets: Sequence[str], raw_body: Union[bytes, str], timestamp: Optional[int] = None) -> str:
    """The header value the server sends: one `v1=` per active secret (for tests and for re-signing)."""
    t = int(time.time()) if timestamp is None else timestamp
    return ",".join([f"t={t}"] + [f"v1={sign(s, t, raw_body)}" for s in secrets])


def verify_webhook(raw_body: Union[bytes, str], signature_header_value: Optional[str], secret: str,
                   tolerance_sec: int = 300, now: Optional[float] = None) -> Dict[str, Any]:
    """Checks a delivery and returns the parsed event; raises WebhookVerificationError otherwise.

    Pass the body exactly as received (bytes), before any JSON parsing.
    """
    if not signature_header_value:
        raise WebhookVerificationError("missing x-service-signature header")
    timestamp: Optional[int] = None
    candidates = []
    for part in signature_header_value.split(","):
        key, _, value = part.strip().partition("=")
        if key == "t" and value.isdigit():
            timestamp = int(value)
        elif key == "v1" and value:
            candidates.append(value)
    if timestamp is None or not candidates:
        raise WebhookVerificationError("malformed x-service-signature header")
    current = time.time() if now is None else now
    if abs(current - timestamp) > tolerance_sec:
        raise WebhookVerificationError("timestamp outside the tolerance")
    expected = sign(secret, timestamp, raw_body)
    if not any(hmac.compare_digest(expected, c) for c in candidates):
        raise WebhookVerificationError("no signature matches the secret")
    return json.loads(_bytes(raw_body).decode("utf-8"))
