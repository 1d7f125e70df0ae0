"""The Platform API client: resources, retries with backoff, idempotency keys, pagination, streaming."""
from __future__ import annotations

import base64
import hashlib
import json
import os
import random
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

from .errors import APIConnectionError, ValidationError, error_for

__all__ = ["PlatformClient", "ClientCredentialsTokenProvider"]

RETRYABLE_STATUSES = {429, 500, 502, 503, 504}
MAX_RETRY_AFTER_SEC = 120.0


def _origin(base_url: str) -> str:
    base = base_url.rstrip("/")
    return base[: -len("/v1")] if base.endswith("/v1") else base


class _Response:
    def __init__(self, status: int, headers: Dict[str, str], body: Any) -> None:
        self.status = status
        self.headers = headers
        self.body = body


class _Transport:
    """HTTP with retries: 429, 5xx and network errors are retried with exponential backoff and
    jitter, honouring Retry-After; other 4xx never are. POSTs carry one Idempotency-Key across
    their retries, so a retried deploy never deploys twice."""

    def __init__(self, base_url: str, auth: Callable[[], Optional[str]], timeout: float, max_retries: int,
                 backoff_base: float = 0.5, sleep: Callable[[float], None] = time.sleep) -> None:
        self.origin = _origin(base_url)
        self.base_url = self.origin + "/v1"
        self.auth = auth
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff_base = backoff_base
        self.sleep = sleep

    def request(self, method: str, path: str, body: Any = None, query: Optional[Dict[str, Any]] = None,
                idempotency_key: Optional[str] = None, stream: bool = False, unversioned: bool = False,
                raw: Optional[bytes] = None, timeout: Union[float, None, bool] = False) -> Any:
        """`unversioned`: the path is outside /v1 (served pages such as /catalog); `raw`: bytes sent as
        application/octet-stream instead of a JSON body (file uploads); `timeout`: this request's socket timeout
        instead of the client's (None: none, for a stream that may stay quiet for long)."""
        url = (self.origin if unversioned else self.base_url) + path
        if query:
            clean = {k: v for k, v in query.items() if v is not None}
            if clean:
                url += "?" + urllib.parse.urlencode(clean)
        headers = {"accept": "application/json", "user-agent": "platform-sdk-python/0.1"}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["content-type"] = "application/json"
        if raw is not None:
            data = raw
            headers["content-type"] = "application/octet-stream"
        if method == "POST":
            headers["idempotency-key"] = idempotency_key or str(uuid.uuid4())
        attempt = 0
        while True:
            token = self.auth()
            if token:
                headers["authorization"] = f"Bearer {token}"
            request = urllib.request.Request(url, data=data, method=method, headers=headers)
            try:
                wait = self.timeout if timeout is False else timeout
                response = urllib.request.urlopen(request, timeout=wait)
                if stream:
                    return response
                raw = response.read()
                return _Response(response.status, dict(response.headers.items()), _parse(raw))
            except urllib.error.HTTPError as e:
                raw = e.read()
                status = e.code
                retry_after = _retry_after(e.headers.get("retry-after"))
                error = error_for(status, _parse(raw), e.headers.get("x-request-id"), retry_after)
                # `x-should-retry: false` (an exhausted AI budget): waiting the few seconds of a retry would not help.
                hopeless = e.headers.get("x-should-retry") == "false"
                if status not in RETRYABLE_STATUSES or hopeless or attempt >= self.max_retries:
                    raise error
                delay = retry_after if retry_after is not None else self._backoff(attempt)
            except (urllib.error.URLError, socket.timeout, ConnectionError) as e:
                if attempt >= self.max_retries:
                    raise APIConnectionError(0, f"could not reach {self.base_url}: {e}") from e
                delay = self._backoff(attempt)
            attempt += 1
            self.sleep(min(delay, MAX_RETRY_AFTER_SEC))

    def _backoff(self, attempt: int) -> float:
        ceiling = self.backoff_base * (2 ** attempt)
        return ceiling / 2 + random.random() * ceiling / 2


def _parse(raw: bytes) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw.decode("utf-8"))
    except ValueError:
        return raw.decode("utf-8", errors="replace")


def _retry_after(value: Optional[str]) -> Optional[float]:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def _sse_data(response: Any) -> Iterator[Dict[str, Any]]:
    """The `data:` payloads of a server-sent event stream, parsed as JSON, up to `[DONE]`."""
    for line in response:
        line = line.decode("utf-8").rstrip("\r\n")
        if not line.startswith("data:"):
            continue
        payload = line[5:].strip()
        if payload == "[DONE]":
            return
        yield json.loads(payload)


def _closing_sse(response: Any) -> Iterator[Dict[str, Any]]:
    """_sse_data that closes the response when the caller stops iterating."""
    try:
        yield from _sse_data(response)
    finally:
        response.close()


def _paginate(transport: _Transport, path: str, query: Dict[str, Any], unversioned: bool = False) -> Iterator[Dict[str, Any]]:
    cursor = None
    while True:
        page = transport.request("GET", path, query={**query, "cursor": cursor}, unversioned=unversioned).body
        for item in page.get("data", []):
            yield item
        cursor = page.get("nextCursor")
        if not cursor:
            return


class _Apps:
    def __init__(self, t: _Transport) -> None:
        self._t = t

    def list(self, limit: int = 100) -> Iterator[Dict[str, Any]]:
        """Every app, newest first, following nextCursor page after page."""
        return _paginate(self._t, "/apps", {"limit": limit})

    def create(self, name: str, description: Optional[str] = None, slug: Optional[str] = None,
               visibility: Optional[str] = None, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """slug: the public address (default from the name); visibility: "public" lists it in the catalogue."""
        optional = {"description": description, "slug": slug, "visibility": visibility}
        body = {"name": name, **{k: v for k, v in optional.items() if v is not None}}
        return self._t.request("POST", "/apps", body, idempotency_key=idempotency_key).body

    def get(self, app_id: str) -> Dict[str, Any]:
        return self._t.request("GET", f"/apps/{urllib.parse.quote(app_id)}").body

    def update(self, app_id: str, **fields: Any) -> Dict[str, Any]:
        return self._t.request("PATCH", f"/apps/{urllib.parse.quote(app_id)}", fields).body

    def delete(self, app_id: str) -> None:
        self._t.request("DELETE", f"/apps/{urllib.parse.quote(app_id)}")

    def publish(self, app_id: str, deployment_id: Optional[str] = None,
                idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """Points the public address at a deployment (default: the newest production one);
        publishing an older one is a rollback."""
        body = {"deploymentId": deployment_id} if deployment_id is not None else {}
        return self._t.request("POST", f"/apps/{urllib.parse.quote(app_id)}/publish", body,
                               idempotency_key=idempotency_key).body

    def unpublish(self, app_id: str, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """Takes the public address down (410); deployment urls keep working."""
        return self._t.request("POST", f"/apps/{urllib.parse.quote(app_id)}/unpublish", {},
                               idempotency_key=idempotency_key).body


class _Splits:
    """Split tests between deployments: the published address serves each visitor one variant, by weight."""

    def __init__(self, t: _Transport) -> None:
        self._t = t

    def start(self, app_id: str, variants: List[Dict[str, Any]]) -> Dict[str, Any]:
        """Starts a test between 2-4 production deployments: variants are {"deploymentId", "weight"} (1-99,
        summing to 100), the first the one the others are compared with. A test already running is ended first."""
        return self._t.request("PUT", f"/apps/{urllib.parse.quote(app_id)}/split", {"variants": variants}).body

    def get(self, app_id: str) -> Dict[str, Any]:
        """The running test with each variant's visitors, signups, conversionRate and chanceToBeatFirst;
        NotFoundError when none runs."""
        return self._t.request("GET", f"/apps/{urllib.parse.quote(app_id)}/split").body

    def end(self, app_id: str) -> None:
        """Ends the test: the published deployment serves everyone again."""
        self._t.request("DELETE", f"/apps/{urllib.parse.quote(app_id)}/split")


class _Domains:
    """Custom domains: an app served at its developer's own host names."""

    def __init__(self, t: _Transport) -> None:
        self._t = t

    def create(self, app_id: str, hostname: str, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """Claims the name for the app; the answer holds the records to create: "verification" (TXT) and
        "target" (CNAME). A name that cannot be claimed raises ValidationError (400) or ConflictError (409)."""
        return self._t.request("POST", f"/apps/{urllib.parse.quote(app_id)}/domains", {"hostname": hostname},
                               idempotency_key=idempotency_key).body

    def list(self, app_id: str, limit: int = 100) -> Iterator[Dict[str, Any]]:
        return _paginate(self._t, f"/apps/{urllib.parse.quote(app_id)}/domains", {"limit": limit})

    def get(self, domain_id: str) -> Dict[str, Any]:
        return self._t.request("GET", f"/domains/{urllib.parse.quote(domain_id)}").body

    def verify(self, domain_id: str, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """Checks the DNS now: status "verified" once the TXT record holds the value, otherwise the domain as it
        was with "lastCheck" saying what was found; ConflictError when another account verified the name first."""
        return self._t.request("POST", f"/domains/{urllib.parse.quote(domain_id)}/verify",
                               idempotency_key=idempotency_key).body

    def delete(self, domain_id: str) -> None:
        """Gives the name up: it stops serving the app at once."""
        self._t.request("DELETE", f"/domains/{urllib.parse.quote(domain_id)}")


class _Catalog:
    def __init__(self, t: _Transport) -> None:
        self._t = t

    def list(self, limit: int = 100) -> Iterator[Dict[str, Any]]:
        """Published public apps of this server, newest publication first (no credentials needed)."""
        return _paginate(self._t, "/catalog", {"limit": limit}, unversioned=True)


class _Deployments:
    def __init__(self, t: _Transport) -> None:
        self._t = t

    def deploy(self, app_id: str, env: str, idempotency_key: Optional[str] = None, files: Optional[Dict[str, str]] = None,
               config: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """files: path -> SHA-256 of files this account uploaded (upload_file); config: how they are served
        (cleanUrls, spa, redirects, headers)."""
        body: Dict[str, Any] = {"appId": app_id, "env": env}
        if files is not None:
            body["files"] = files
        if config is not None:
            body["config"] = config
        return self._t.request("POST", "/apps/deploy", body, idempotency_key=idempotency_key).body

    def get(self, deployment_id: str) -> Dict[str, Any]:
        return self._t.request("GET", f"/deployments/{urllib.parse.quote(deployment_id)}").body

    def list(self, app_id: str, limit: int = 100) -> Iterator[Dict[str, Any]]:
        return _paginate(self._t, f"/apps/{urllib.parse.quote(app_id)}/deployments", {"limit": limit})

    def logs(self, deployment_id: str, since: Optional[str] = None, limit: Optional[int] = None) -> List[Dict[str, Any]]:
        """The server code's log lines ({"at", "level", "message"}), oldest first: the newest `limit` (1-1000,
        default 100) after `since` (an ISO 8601 time). Scope apps:read."""
        path = f"/deployments/{urllib.parse.quote(deployment_id)}/logs"
        return self._t.request("GET", path, query={"since": since, "limit": limit}).body["data"]

    def follow_logs(self, deployment_id: str, since: Optional[str] = None,
                    timeout: Optional[float] = None) -> Iterator[Dict[str, Any]]:
        """Each new log line as it is written (after `since` when given, else from now on), for as long as the
        caller iterates: breaking out of the loop (or calling close()) closes the stream. The stream is open when
        this returns (an unknown deployment raises NotFoundError here). `timeout`: the longest quiet spell to wait
        for a line (default: no limit), past it socket.timeout is raised."""
        path = f"/deployments/{urllib.parse.quote(deployment_id)}/logs"
        response = self._t.request("GET", path, query={"follow": "true", "since": since}, stream=True, timeout=timeout)
        return _closing_sse(response)


class _Env:
    """Environment variables and secrets of an app environment, for its server code: a deploy takes them as they
    are, so a change applies from the next deploy. A secret's value is never shown again."""

    def __init__(self, t: _Transport) -> None:
        self._t = t

    @staticmethod
    def _path(app_id: str, env: str, name: Optional[str] = None) -> str:
        path = f"/apps/{urllib.parse.quote(app_id, safe='')}/environments/{urllib.parse.quote(env, safe='')}/vars"
        return path if name is None else f"{path}/{urllib.parse.quote(name, safe='')}"

    def set(self, app_id: str, env: str, name: str, value: str, secret: bool = False) -> Dict[str, Any]:
        """Creates or replaces a variable (scope deployments:write): {"name", "secret", "value" (not for a secret),
        "updatedAt"}. A bad name (not [A-Z_][A-Z0-9_]*, or PLATFORM_…) or a value past 64 KiB: ValidationError."""
        return self._t.request("PUT", self._path(app_id, env, name), {"value": value, "secret": secret}).body

    def list(self, app_id: str, env: str) -> List[Dict[str, Any]]:
        """The environment's variables, secrets without their values."""
        return self._t.request("GET", self._path(app_id, env)).body["data"]

    def remove(self, app_id: str, env: str, name: str) -> None:
        """Deletes a variable; one that does not exist: NotFoundError."""
        self._t.request("DELETE", self._path(app_id, env, name))


class _LandingPage:
    def __init__(self, t: _Transport) -> None:
        self._t = t

    def get(self, app_id: str) -> Dict[str, Any]:
        """The app's page; source "default" until one is saved."""
        return self._t.request("GET", f"/apps/{urllib.parse.quote(app_id)}/landing-page").body

    def put(self, app_id: str, page: Dict[str, Any]) -> Dict[str, Any]:
        """Replaces the page (source "manual"); the next deploy serves it."""
        return self._t.request("PUT", f"/apps/{urllib.parse.quote(app_id)}/landing-page", page).body

    def generate(self, app_id: str, prompt: Optional[str] = None, sections: Optional[List[str]] = None,
                 idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """Has AI write the sections asked for (default all) and saves the page (source "generated")."""
        body: Dict[str, Any] = {}
        if prompt is not None:
            body["prompt"] = prompt
        if sections is not None:
            body["sections"] = sections
        return self._t.request("POST", f"/apps/{urllib.parse.quote(app_id)}/landing-page/generate", body,
                               idempotency_key=idempotency_key).body


def _stats_query(period: Optional[str], date_from: Optional[str], date_to: Optional[str], metrics: Optional[List[str]],
                 filters: Optional[Dict[str, str]]) -> Dict[str, Any]:
    return {
        "period": period,
        "from": date_from,
        "to": date_to,
        "metrics": ",".join(metrics) if metrics else None,
        "filters": ";".join(f"{k}=={v}" for k, v in filters.items()) if filters else None,
    }


class _Analytics:
    """The stats API of one app (scope analytics:read). period: day, 7d, 30d (default), month, 12mo or
    custom with date_from/date_to (YYYY-MM-DD, inclusive, UTC); filters: {"page": "/pricing", "event": "Download",
    "props.plan": "pro", ...}. Metrics include "events" (custom events); breakdown properties include "event",
    "props.<key>" and "goal" (per goal: visitors, events and conversionRate)."""

    def __init__(self, t: _Transport) -> None:
        self._t = t

    def aggregate(self, app_id: str, period: Optional[str] = None, date_from: Optional[str] = None, date_to: Optional[str] = None,
                  metrics: Optional[List[str]] = None, filters: Optional[Dict[str, str]] = None) -> Dict[str, Any]:
        query = _stats_query(period, date_from, date_to, metrics, filters)
        return self._t.request("GET", f"/apps/{urllib.parse.quote(app_id)}/analytics/aggregate", query=query).body

    def timeseries(self, app_id: str, period: Optional[str] = None, interval: Optional[str] = None, date_from: Optional[str] = None,
                   date_to: Optional[str] = None, metrics: Optional[List[str]] = None,
                   filters: Optional[Dict[str, str]] = None) -> Dict[str, Any]:
        query = {**_stats_query(period, date_from, date_to, metrics, filters), "interval": interval}
        return self._t.request("GET", f"/apps/{urllib.parse.quote(app_id)}/analytics/timeseries", query=query).body

    def breakdown(self, app_id: str, property: str, period: Optional[str] = None, date_from: Optional[str] = None,
                  date_to: Optional[str] = None, metrics: Optional[List[str]] = None, filters: Optional[Dict[str, str]] = None,
                  limit: int = 100, goal: Optional[str] = None) -> Iterator[Dict[str, Any]]:
        """Rows keyed by the property, most visitors first, following nextCursor. goal="Download" makes a goal the
        funnel's step instead of sign-up: signups are its unique converting visitors, conversionRate their share."""
        query = {**_stats_query(period, date_from, date_to, metrics, filters), "property": property, "limit": limit}
        if goal is not None:
            query["goal"] = goal
        return _paginate(self._t, f"/apps/{urllib.parse.quote(app_id)}/analytics/breakdown", query)

    def realtime(self, app_id: str) -> Dict[str, Any]:
        return self._t.request("GET", f"/apps/{urllib.parse.quote(app_id)}/analytics/realtime").body

    # Export and shared dashboards (issue 47).
    def export(self, app_id: str, period: Optional[str] = None, date_from: Optional[str] = None, date_to: Optional[str] = None,
               filters: Optional[Dict[str, str]] = None, path: Optional[str] = None) -> bytes:
        """The period's tables as a ZIP of CSV files (visitors.csv, pages.csv, ... properties.csv); written to
        `path` too when given. The bytes are returned either way."""
        query = _stats_query(period, date_from, date_to, None, filters)
        response = self._t.request("GET", f"/apps/{urllib.parse.quote(app_id)}/analytics/export", query=query, stream=True)
        with response:
            data = response.read()
        if path is not None:
            with open(path, "wb") as f:
                f.write(data)
        return data

    def create_share(self, app_id: str, name: str, password: Optional[str] = None) -> Dict[str, Any]:
        """A read-only link to the app's analytics ({"id", "name", "url", "protected", "createdAt"}); with a
        password, the page asks for it first. Scope apps:write."""
        body: Dict[str, Any] = {"name": name} if password is None else {"name": name, "password": password}
        return self._t.request("POST", f"/apps/{urllib.parse.quote(app_id)}/analytics/shares", body).body

    def list_shares(self, app_id: str) -> List[Dict[str, Any]]:
        return self._t.request("GET", f"/apps/{urllib.parse.quote(app_id)}/analytics/shares").body["data"]

    def delete_share(self, app_id: str, share_id: str) -> None:
        """The link answers 404 from the next request on."""
        self._t.request("DELETE", f"/apps/{urllib.parse.quote(app_id)}/analytics/shares/{urllib.parse.quote(share_id)}")


class _Goals:
    """An app's goals: a custom event (event="Download") or pageviews of a page (page="/blog/*", * any
    characters). Counted by analytics.breakdown(app_id, "goal"), over the retained events from before a
    goal was made too; "Sign-up" is built in. At most 50 per app."""

    def __init__(self, t: _Transport) -> None:
        self._t = t

    def create(self, app_id: str, event: Optional[str] = None, page: Optional[str] = None) -> Dict[str, Any]:
        """Exactly one of event and page; a duplicate (or the 51st) raises ConflictError."""
        body = {"event": event} if page is None else {"page": page} if event is None else {"event": event, "page": page}
        return self._t.request("POST", f"/apps/{urllib.parse.quote(app_id)}/goals", body).body

    def list(self, app_id: str) -> List[Dict[str, Any]]:
        return self._t.request("GET", f"/apps/{urllib.parse.quote(app_id)}/goals").body["data"]

    def delete(self, app_id: str, goal_id: str) -> None:
        self._t.request("DELETE", f"/apps/{urllib.parse.quote(app_id)}/goals/{urllib.parse.quote(goal_id)}")


class _Billing:
    def __init__(self, t: _Transport) -> None:
        self._t = t

    def get(self) -> Dict[str, Any]:
        """The plan and this month's usage of every meter (scope billing:read)."""
        return self._t.request("GET", "/billing").body

    def statements(self, limit: int = 100) -> Iterator[Dict[str, Any]]:
        """Monthly statements, newest first (this month's open one, then the closed ones)."""
        return _paginate(self._t, "/billing/statements", {"limit": limit})


class _Users:
    def __init__(self, t: _Transport) -> None:
        self._t = t

    def create(self, app_id: str, email: str, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        return self._t.request("POST", "/users", {"appId": app_id, "email": email}, idempotency_key=idempotency_key).body

    def list(self, app_id: str, limit: int = 100) -> Iterator[Dict[str, Any]]:
        return _paginate(self._t, "/users", {"appId": app_id, "limit": limit})

    def get(self, user_id: str) -> Dict[str, Any]:
        return self._t.request("GET", f"/users/{urllib.parse.quote(user_id)}").body

    def delete(self, user_id: str) -> None:
        self._t.request("DELETE", f"/users/{urllib.parse.quote(user_id)}")


class _WebhookEndpoints:
    def __init__(self, t: _Transport) -> None:
        self._t = t

    def create(self, url: str, events: Optional[List[str]] = None, description: Optional[str] = None) -> Dict[str, Any]:
        body: Dict[str, Any] = {"url": url}
        if events is not None:
            body["events"] = events
        if description is not None:
            body["description"] = description
        return self._t.request("POST", "/webhook-endpoints", body).body

    def list(self, limit: int = 100) -> Iterator[Dict[str, Any]]:
        return _paginate(self._t, "/webhook-endpoints", {"limit": limit})

    def get(self, endpoint_id: str) -> Dict[str, Any]:
        return self._t.request("GET", f"/webhook-endpoints/{urllib.parse.quote(endpoint_id)}").body

    def update(self, endpoint_id: str, **fields: Any) -> Dict[str, Any]:
        return self._t.request("PATCH", f"/webhook-endpoints/{urllib.parse.quote(endpoint_id)}", fields).body

    def delete(self, endpoint_id: str) -> None:
        self._t.request("DELETE", f"/webhook-endpoints/{urllib.parse.quote(endpoint_id)}")

    def rotate_secret(self, endpoint_id: str) -> Dict[str, Any]:
        return self._t.request("POST", f"/webhook-endpoints/{urllib.parse.quote(endpoint_id)}/rotate-secret").body

    def test(self, endpoint_id: str) -> Dict[str, Any]:
        return self._t.request("POST", f"/webhook-endpoints/{urllib.parse.quote(endpoint_id)}/test").body

    def deliveries(self, endpoint_id: str) -> Any:
        return self._t.request("GET", f"/webhook-endpoints/{urllib.parse.quote(endpoint_id)}/deliveries").body

    def retry_delivery(self, delivery_id: str) -> Any:
        """One more attempt now (ConflictError while one is under way)."""
        return self._t.request("POST", f"/webhook-deliveries/{urllib.parse.quote(delivery_id)}/retry").body

    def recover(self, endpoint_id: str, since: Union[str, datetime]) -> Dict[str, Any]:
        """Re-sends every failed delivery of the endpoint whose event was raised at or after `since`
        (within 14 days; a datetime without a zone is taken as UTC), oldest first. Answers {"queued": n}."""
        if isinstance(since, datetime):
            since = (since if since.tzinfo else since.replace(tzinfo=timezone.utc)).isoformat()
        return self._t.request("POST", f"/webhook-endpoints/{urllib.parse.quote(endpoint_id)}/recover", {"since": since}).body


class _Events:
    def __init__(self, t: _Transport) -> None:
        self._t = t

    def list(self, kind: Optional[str] = None, limit: int = 100) -> Iterator[Dict[str, Any]]:
        return _paginate(self._t, "/events", {"kind": kind, "limit": limit})

    def get(self, event_id: str) -> Dict[str, Any]:
        return self._t.request("GET", f"/events/{urllib.parse.quote(event_id)}").body


class _AI:
    def __init__(self, t: _Transport) -> None:
        self._t = t

    def generate(self, prompt: str, max_tokens: Optional[int] = None, temperature: Optional[float] = None) -> Dict[str, Any]:
        return self._t.request("POST", "/ai/generate", _ai_body(prompt, max_tokens, temperature, False)).body

    def stream(self, prompt: str, max_tokens: Optional[int] = None, temperature: Optional[float] = None) -> Iterator[str]:
        """Text chunks as they are generated. The final usage is in `.last_usage` afterwards."""
        response = self._t.request("POST", "/ai/generate", _ai_body(prompt, max_tokens, temperature, True), stream=True)
        self.last_usage: Optional[Dict[str, Any]] = None
        try:
            for event in _sse_data(response):
                if "text" in event:
                    yield event["text"]
                elif "error" in event and event.get("error"):
                    raise error_for(int(event.get("code", 502)), event, None)
                else:
                    self.last_usage = event.get("usage")
        finally:
            response.close()

    def chat(self, model: str, messages: List[Dict[str, Any]], **fields: Any) -> Dict[str, Any]:
        """OpenAI's chat completion (POST /v1/chat/completions) on a model of `models()`; `fields` are OpenAI's
        (max_tokens, temperature, tools...). The official `openai` package works against the same route
        (base_url=<server>/v1); this is for code that already uses this client."""
        body = {**fields, "model": model, "messages": messages, "stream": False}
        return self._t.request("POST", "/chat/completions", body).body

    def chat_stream(self, model: str, messages: List[Dict[str, Any]], **fields: Any) -> Iterator[Dict[str, Any]]:
        """The same, streamed: `chat.completion.chunk` dicts as they come; the last one carries `usage` (and no
        choices). A failure after the first chunk raises (no retry: the answer had started)."""
        body = {**fields, "model": model, "messages": messages, "stream": True, "stream_options": {"include_usage": True}}
        response = self._t.request("POST", "/chat/completions", body, stream=True)
        try:
            for event in _sse_data(response):
                error = event.get("error")
                if error:
                    status = 504 if error.get("code") == "timeout" else 502
                    raise error_for(status, {"error": True, "code": status, "message": error.get("message"), "reason": error.get("code")}, None)
                yield event
        finally:
            response.close()

    def models(self) -> List[Dict[str, Any]]:
        """The models the server offers (GET /v1/models): their `id` is what chat and embeddings take as `model`."""
        return self._t.request("GET", "/models").body["data"]

    def embeddings(self, model: str, input: Union[str, List[str]], **fields: Any) -> Dict[str, Any]:
        """OpenAI's embeddings (POST /v1/embeddings) of one text or several, as lists of floats."""
        return self._t.request("POST", "/embeddings", {**fields, "model": model, "input": input}).body


def _ai_body(prompt: str, max_tokens: Optional[int], temperature: Optional[float], stream: bool) -> Dict[str, Any]:
    body: Dict[str, Any] = {"prompt": prompt, "stream": stream}
    if max_tokens is not None:
        body["maxTokens"] = max_tokens
    if temperature is not None:
        body["temperature"] = temperature
    return body


class _ApiKeys:
    def __init__(self, t: _Transport) -> None:
        self._t = t

    def create(self, name: str, scopes: Optional[List[str]] = None) -> Dict[str, Any]:
        return self._t.request("POST", "/api-keys", {"name": name, **({"scopes": scopes} if scopes is not None else {})}).body

    def list(self) -> List[Dict[str, Any]]:
        return self._t.request("GET", "/api-keys").body["data"]

    def revoke(self, key_id: str) -> None:
        self._t.request("DELETE", f"/api-keys/{urllib.parse.quote(key_id)}")


class _Members:
    def __init__(self, t: _Transport) -> None:
        self._t = t

    def list(self, limit: int = 100) -> Iterator[Dict[str, Any]]:
        """The people who sign in to the account's portal, with their roles (scope members:read)."""
        return _paginate(self._t, "/members", {"limit": limit})

    def invite(self, email: str, role: str) -> Dict[str, Any]:
        """Invites a member (scope members:write): the link works once, for this e-mail, 7 days; `invitationUrl`
        is set (once) when the server did not e-mail it. Never an owner: only an owner signed in to the portal
        invites one (PermissionDeniedError `owner_member_required`). At most 3 invitation e-mails to an address
        per 15 minutes (RateLimitError `invitation_mail_limit`)."""
        return self._t.request("POST", "/members/invitations", {"email": email, "role": role}).body

    def invitations(self, limit: int = 100) -> Iterator[Dict[str, Any]]:
        """The pending invitations (neither used, revoked nor expired), newest first (scope members:read); never
        their link."""
        return _paginate(self._t, "/members/invitations", {"limit": limit})

    def revoke_invitation(self, invitation_id: str) -> None:
        """Revokes a pending invitation (scope members:write): its link opens nothing from then on. One used,
        expired or revoked already: NotFoundError."""
        self._t.request("DELETE", f"/members/invitations/{urllib.parse.quote(invitation_id)}")

    def change_role(self, member_id: str, role: str) -> Dict[str, Any]:
        """The member's keys, service accounts and invitations follow the new role at once. Making or demoting an
        owner is for an owner signed in to the portal (PermissionDeniedError `owner_member_required`)."""
        return self._t.request("PATCH", f"/members/{urllib.parse.quote(member_id)}", {"role": role}).body

    def remove(self, member_id: str) -> None:
        """Their sessions end; the API keys and service accounts they created and the invitations they sent are
        revoked. Removing an owner is for an owner signed in to the portal (`owner_member_required`)."""
        self._t.request("DELETE", f"/members/{urllib.parse.quote(member_id)}")


class _AuditLog:
    def __init__(self, t: _Transport) -> None:
        self._t = t

    def list(self, action: Optional[str] = None, actor: Optional[str] = None, since: Optional[str] = None,
             until: Optional[str] = None, limit: int = 100) -> Iterator[Dict[str, Any]]:
        """Who did what, newest first, kept 400 days (scope audit:read). `since`/`until` are ISO 8601 times
        (the API's `from` and `to`)."""
        return _paginate(self._t, "/audit-log", {"action": action, "actor": actor, "from": since, "to": until, "limit": limit})


class _Sso:
    def __init__(self, t: _Transport) -> None:
        self._t = t

    def get(self) -> Dict[str, Any]:
        """The account's OpenID Connect single sign-on (scope members:read); never the client secret.
        Not set up: NotFoundError."""
        return self._t.request("GET", "/sso").body

    def configure(self, issuer: str, client_id: str, domains: List[str], default_role: str,
                  client_secret: Optional[str] = None, required: bool = False) -> Dict[str, Any]:
        """Refused to every API key and access token (PermissionDeniedError `owner_member_required`): an owner
        changes single sign-on signed in to the portal. Kept so that the answer says so."""
        body: Dict[str, Any] = {"issuer": issuer, "clientId": client_id, "domains": domains,
                                "defaultRole": default_role, "required": required}
        if client_secret is not None:
            body["clientSecret"] = client_secret
        return self._t.request("PUT", "/sso", body).body

    def remove(self) -> None:
        """Refused to every API key and access token (PermissionDeniedError `owner_member_required`): an owner
        turns single sign-on off signed in to the portal (or the operator, with the admin token)."""
        self._t.request("DELETE", "/sso")

    def verify_domain(self, domain: str) -> Dict[str, Any]:
        """Checks an SSO domain's TXT record (``domainProofs[].verification``) now (scope members:write); answers
        the settings, the domain ``verified`` once the record holds the value: only then do its sign-ins go to the
        provider. Another account proved it first: ConflictError ``sso_domain_taken``; not listed: NotFoundError."""
        return self._t.request("POST", f"/sso/domains/{urllib.parse.quote(domain, safe='')}/verify").body


class _Admin:
    """Operator routes: the client's api_key is the admin token (ADMIN_TOKEN)."""

    def __init__(self, t: _Transport) -> None:
        self._t = t

    def reissue_invite(self, account_id: str) -> Dict[str, Any]:
        """A new portal invite for the account: {"portalInviteUrl"} (single use, 7 days, shown once); its earlier
        unused invite links stop working. Unknown account: NotFoundError."""
        return self._t.request("POST", f"/admin/accounts/{urllib.parse.quote(account_id)}/invite").body

    def remove_sso(self, account_id: str) -> None:
        """Turns the account's single sign-on off: the way back in when every owner is locked out (no key of the
        account may). Not set up, or no such account: NotFoundError."""
        self._t.request("DELETE", f"/admin/accounts/{urllib.parse.quote(account_id)}/sso")


# Folders and files never deployed: version control and desktop litter.
_SKIPPED = {".git", ".hg", ".svn", ".DS_Store", "Thumbs.db"}
# A deploy answered files_missing this many times in a row (files swept between two tries): give up.
_DEPLOY_ATTEMPTS = 3


def _list_files(folder: str) -> List[Tuple[str, str]]:
    """(served path, file) of every regular file under `folder`, sorted by path; symbolic links are not followed."""
    found: List[Tuple[str, str]] = []

    def walk(current: str, prefix: str) -> None:
        with os.scandir(current) as entries:
            for entry in entries:
                if entry.name in _SKIPPED:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    walk(entry.path, f"{prefix}/{entry.name}")
                elif entry.is_file(follow_symlinks=False):
                    found.append((f"{prefix}/{entry.name}", entry.path))

    walk(folder, "")
    return sorted(found)


_SERVER_FOLDER = "/_server"


def _with_server_code(found: List[Tuple[str, str]], functions: Dict[str, Any]) -> Dict[str, Any]:
    """Adds the server code's files to `found` under /_server/ and answers config.functions; refused before any
    upload: a site folder with a /_server/ of its own, a server folder without files, an entry not one of them."""
    if any(path.startswith(_SERVER_FOLDER + "/") for path, _ in found):
        raise ValueError(f"the site folder holds a {_SERVER_FOLDER}/ folder of its own: that path is for the server code")
    folder = functions["dir"]
    code = [(_SERVER_FOLDER + path, file) for path, file in _list_files(folder)]
    if not code:
        raise ValueError(f"{folder} holds no files to deploy as server code")
    paths = {path for path, _ in code}
    entry_name = functions.get("entry")
    if entry_name is not None:
        entry = _SERVER_FOLDER + "/" + entry_name.replace("\\", "/").lstrip("/").removeprefix("./")
        if entry not in paths:
            raise ValueError(f"the entry {entry_name} is not a file of {folder}")
    else:
        entry = next((p for p in (_SERVER_FOLDER + "/index.js", _SERVER_FOLDER + "/index.ts") if p in paths), "")
        if not entry:
            raise ValueError(f"{folder} has no index.js or index.ts: name its entry file")
    found.extend(code)
    found.sort()
    return {"entry": entry, "routes": functions.get("routes") or ["/api/*"]}


def _hash_file(path: str) -> Tuple[str, int]:
    """SHA-256 and size, read 1 MiB at a time (a large file is never held whole)."""
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
            size += len(chunk)
    return digest.hexdigest(), size


def _missing_of(error: Exception) -> Optional[List[str]]:
    """The hashes a files_missing answer lists, or None for any other error."""
    if not isinstance(error, ValidationError) or error.reason != "files_missing" or not isinstance(error.body, dict):
        return None
    missing = error.body.get("missing")
    return [h for h in missing if isinstance(h, str)] if isinstance(missing, list) else None


class ClientCredentialsTokenProvider:
    """Fetches an OAuth access token with the client credentials grant and refreshes it a minute
    (or a tenth of its lifetime, if shorter) before it expires. Thread-safe."""

    def __init__(self, base_url: str, client_id: str, client_secret: str, scope: Optional[str] = None,
                 timeout: float = 30.0) -> None:
        self._transport = _Transport(base_url, lambda: None, timeout, max_retries=2)
        self._client_id = client_id
        self._client_secret = client_secret
        self._scope = scope
        self._token: Optional[str] = None
        self._refresh_at = 0.0
        self._lock = threading.Lock()

    def token(self) -> str:
        with self._lock:
            if self._token is None or time.time() >= self._refresh_at:
                self._fetch()
            return self._token  # type: ignore[return-value]

    def _fetch(self) -> None:
        basic = base64.b64encode(f"{self._client_id}:{self._client_secret}".encode()).decode()
        form = {"grant_type": "client_credentials", **({"scope": self._scope} if self._scope else {})}
        request = urllib.request.Request(
            self._transport.base_url + "/oauth/token",
            data=urllib.parse.urlencode(form).encode(),
            method="POST",
            headers={"authorization": f"Basic {basic}", "content-type": "application/x-www-form-urlencoded"},
        )
        try:
            with urllib.request.urlopen(request, timeout=self._transport.timeout) as response:
                body = json.loads(response.read())
        except urllib.error.HTTPError as e:
            raise error_for(e.code, _parse(e.read()), e.headers.get("x-request-id")) from None
        lifetime = float(body.get("expires_in", 3600))
        self._token = body["access_token"]
        self._refresh_at = time.time() + lifetime - min(60.0, lifetime / 10)


class _OAuth:
    def __init__(self, base_url: str, timeout: float) -> None:
        self._base_url = base_url
        self._timeout = timeout

    def client_credentials(self, client_id: str, client_secret: str, scope: Optional[str] = None) -> ClientCredentialsTokenProvider:
        return ClientCredentialsTokenProvider(self._base_url, client_id, client_secret, scope, self._timeout)


class _Reports:
    """Your own e-mail reports of an app: weekly (Mondays, the previous ISO week) and monthly (the 1st, the
    previous month). A member's key or session only; others raise PermissionDeniedError (report_member_required)."""

    def __init__(self, t: _Transport) -> None:
        self._t = t

    def get(self, app_id: str) -> Dict[str, bool]:
        return self._t.request("GET", f"/apps/{urllib.parse.quote(app_id)}/analytics/reports").body

    def set(self, app_id: str, weekly: Optional[bool] = None, monthly: Optional[bool] = None) -> Dict[str, bool]:
        """Turns reports on (True) or off (False); one left as None stays as it is. Returns them all."""
        body = {k: v for k, v in (("weekly", weekly), ("monthly", monthly)) if v is not None}
        return self._t.request("PUT", f"/apps/{urllib.parse.quote(app_id)}/analytics/reports", body).body


class PlatformClient:
    """client = PlatformClient(api_key="sk_…", base_url="http://localhost:3000")"""

    def __init__(self, api_key: Optional[str] = None, access_token: Optional[str] = None,
                 base_url: str = "http://localhost:3000", timeout: float = 60.0, max_retries: int = 3,
                 token_provider: Optional[ClientCredentialsTokenProvider] = None,
                 backoff_base: float = 0.5) -> None:
        credential = api_key or access_token

        def auth() -> Optional[str]:
            return token_provider.token() if token_provider else credential

        self._transport = _Transport(base_url, auth, timeout, max_retries, backoff_base)
        self.apps = _Apps(self._transport)
        self.domains = _Domains(self._transport)
        self.splits = _Splits(self._transport)
        self.catalog = _Catalog(self._transport)
        self.deployments = _Deployments(self._transport)
        self.env = _Env(self._transport)
        self.landing_page = _LandingPage(self._transport)
        self.analytics = _Analytics(self._transport)
        self.goals = _Goals(self._transport)
        self.reports = _Reports(self._transport)
        self.billing = _Billing(self._transport)
        self.users = _Users(self._transport)
        self.webhook_endpoints = _WebhookEndpoints(self._transport)
        self.events = _Events(self._transport)
        self.ai = _AI(self._transport)
        self.api_keys = _ApiKeys(self._transport)
        self.members = _Members(self._transport)
        self.audit_log = _AuditLog(self._transport)
        self.sso = _Sso(self._transport)
        self.oauth = _OAuth(base_url, timeout)
        self.admin = _Admin(self._transport)

    def upload_file(self, data: bytes, sha256: Optional[str] = None) -> Dict[str, Any]:
        """Uploads one file for deploys (PUT /v1/files/<sha256>, raw bytes); the hash is computed unless given.
        Stored once per account: uploading a file the account has writes nothing."""
        digest = sha256 or hashlib.sha256(data).hexdigest()
        return self._transport.request("PUT", f"/files/{digest}", raw=data).body

    def deploy_directory(self, directory: str, app_id: str, env: str = "production", spa: Optional[bool] = None,
                         publish: bool = False, config: Optional[Dict[str, Any]] = None, concurrency: int = 8,
                         on_progress: Optional[Callable[[Dict[str, Any]], None]] = None,
                         functions: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """Deploys every file under `directory` (a web app's build output) with the landing page.

        Hashes the files (streaming), deploys the manifest; the server answers files_missing with the hashes this
        account lacks, which are uploaded (`concurrency` at a time, each once, retried on 429/5xx/network errors),
        and the deploy is sent again; publishes when `publish`. A redeploy where nothing changed uploads nothing.
        `on_progress` gets {"phase": "hashing" | "uploading" | "deployed" | "published", ...}.
        `functions`: {"dir", "entry"?, "routes"?}, server code: that folder deployed under /_server/, its index.js or
        index.ts (or `entry`, a file of it) the entry, answering `routes` (default ["/api/*"]): config.functions.
        Answers {"deployment", "files", "bytes", "uploaded": {"files", "bytes"}, "app"?}."""
        report = on_progress or (lambda progress: None)
        found = _list_files(directory)
        if not found:
            raise ValueError(f"{directory} holds no files to deploy")
        server_code = _with_server_code(found, functions) if functions else None
        lock = threading.Lock()
        hashed = {"files": 0, "bytes": 0}

        def hash_one(item: Tuple[str, str]) -> Tuple[str, str, str, int]:
            path, file = item
            digest, size = _hash_file(file)
            with lock:
                hashed["files"] += 1
                hashed["bytes"] += size
                report({"phase": "hashing", "files": hashed["files"], "bytes": hashed["bytes"], "total": len(found)})
            return path, file, digest, size

        with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
            files = list(pool.map(hash_one, found))
        manifest = {path: digest for path, _, digest, _ in files}
        served = dict(config or {})
        if spa is not None:
            served["spa"] = spa
        if server_code:
            served["functions"] = server_code
        uploaded = {"files": 0, "bytes": 0}
        deployment: Optional[Dict[str, Any]] = None
        attempt = 0
        while deployment is None:
            attempt += 1
            try:
                deployment = self.deployments.deploy(app_id, env, files=manifest, config=served or None)
            except ValidationError as error:
                missing = _missing_of(error)
                if missing is None or attempt >= _DEPLOY_ATTEMPTS:
                    raise
                self._upload_missing(files, missing, concurrency, uploaded, report)
        report({"phase": "deployed", "deploymentId": deployment["deploymentId"], "url": deployment["url"]})
        result: Dict[str, Any] = {"deployment": deployment, "files": len(files), "bytes": hashed["bytes"], "uploaded": uploaded}
        if publish:
            result["app"] = self.apps.publish(app_id, deployment["deploymentId"])
            if result["app"].get("publicUrl"):
                report({"phase": "published", "publicUrl": result["app"]["publicUrl"]})
        return result

    def _upload_missing(self, files: List[Tuple[str, str, str, int]], missing: List[str], concurrency: int,
                        uploaded: Dict[str, int], report: Callable[[Dict[str, Any]], None]) -> None:
        by_hash = {digest: (file, size) for _, file, digest, size in files}
        todo = [(digest, *by_hash[digest]) for digest in dict.fromkeys(missing) if digest in by_hash]
        total_bytes = sum(size for _, _, size in todo)
        lock = threading.Lock()
        done = {"files": 0, "bytes": 0}

        def upload_one(item: Tuple[str, str, int]) -> None:
            digest, file, size = item
            with open(file, "rb") as f:
                self.upload_file(f.read(), digest)
            with lock:
                done["files"] += 1
                done["bytes"] += size
                report({"phase": "uploading", "files": done["files"], "bytes": done["bytes"], "total": len(todo),
                        "totalBytes": total_bytes})

        with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
            list(pool.map(upload_one, todo))
        uploaded["files"] += done["files"]
        uploaded["bytes"] += done["bytes"]

    @classmethod
    def from_client_credentials(cls, client_id: str, client_secret: str, scope: Optional[str] = None,
                                base_url: str = "http://localhost:3000", **kwargs: Any) -> "PlatformClient":
        provider = ClientCredentialsTokenProvider(base_url, client_id, client_secret, scope)
        return cls(base_url=base_url, token_provider=provider, **kwargs)


