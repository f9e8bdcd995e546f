"""Service-Signature check for a webhook delivery: Python standard library only (see docs/clients.md)."""
import hashlib
import hmac
import time


def verify_webhook(secret, header, body, now=None):
    """True when `header` (Service-Signature: t=<unix seconds>,v1=<hex>) signs the raw `body` bytes
    with `secret`, and t is within 5 minutes of `now` (default: this machine's clock)."""
    try:
        fields = dict(part.split("=", 1) for part in header.split(","))
        t, v1 = fields["t"], fields["v1"]
        age = (time.time() if now is None else now) - int(t)
    except (KeyError, ValueError):
        return False
    expected = hmac.new(secret.encode(), t.encode() + b"." + body, hashlib.sha256).hexdigest()
    return abs(age) <= 300 and hmac.compare_digest(expected.encode(), v1.encode())
