"""Against a real server (started by npm test; see tests/support.py)."""
import concurrent.futures
import hashlib
import json
import os
import shutil
import tempfile
import time
import unittest
import urllib.request
from datetime import datetime, timedelta, timezone

from platform_sdk import (AuthenticationError, ConflictError, NotFoundError, PermissionDeniedError, PlatformClient, ValidationError,
                          WebhookVerificationError, verify_webhook)

from .support import FaultProxy, Receiver, create_account, require_server

try:  # The Standard Webhooks library for Python, when it is installed (it is not on PyPI-less machines).
    from standardwebhooks.webhooks import Webhook as StandardWebhook  # type: ignore
except ImportError:
    StandardWebhook = None


class ClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.base_url, _ = require_server()
        account = create_account()
        cls.api_key = account["apiKey"]
        cls.client = PlatformClient(api_key=cls.api_key, base_url=cls.base_url, backoff_base=0.05)

    def test_pages_through_250_apps(self):
        account = create_account()
        client = PlatformClient(api_key=account["apiKey"], base_url=self.base_url)
        with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
            created = list(pool.map(lambda i: client.apps.create(name=f"app {i}")["appId"], range(250)))
        seen = [app["appId"] for app in client.apps.list(limit=100)]
        self.assertEqual(len(seen), 250)
        self.assertEqual(set(seen), set(created))

    def test_deploy(self):
        app = self.client.apps.create(name="Py deploy", description="from Python")
        deployment = self.client.deployments.deploy(app_id=app["appId"], env="production")
        self.assertEqual(deployment["status"], "success")
        self.assertTrue(deployment["deploymentId"].startswith("dep_"))
        self.assertEqual([d["deploymentId"] for d in self.client.deployments.list(app["appId"])], [deployment["deploymentId"]])
        with self.assertRaises(ValidationError) as ctx:
            self.client.deployments.deploy(app_id=app["appId"], env="Prod!")
        self.assertIn("env", ctx.exception.message)
        with self.assertRaises(NotFoundError) as missing:
            self.client.apps.get("app_missing")
        self.assertEqual(missing.exception.reason, "app_not_found")

    def test_upload_file_and_deploy_directory(self):
        data = b"hello from Python"
        digest = hashlib.sha256(data).hexdigest()
        self.assertEqual(self.client.upload_file(data), {"sha256": digest, "size": len(data)})
        self.assertEqual(self.client.upload_file(data, digest), {"sha256": digest, "size": len(data)})
        with self.assertRaises(ValidationError) as ctx:
            self.client.upload_file(data, hashlib.sha256(b"other").hexdigest())
        self.assertEqual(ctx.exception.reason, "digest_mismatch")

        folder = tempfile.mkdtemp(prefix="py-site-")
        try:
            os.makedirs(os.path.join(folder, "assets"))
            os.makedirs(os.path.join(folder, ".git"))
            for name, content in [("index.html", "<!doctype html><h1>Py</h1>"), ("assets/app.1a2b3c4d.js", "app()"),
                                  ("assets/copy.js", "app()"), (".git/config", "[core]")]:
                with open(os.path.join(folder, name), "w") as f:
                    f.write(content)
            app = self.client.apps.create(name="Py folder")
            proxy = FaultProxy(self.base_url)
            try:
                # The first deploy (files_missing) goes through; the first upload is stored, then answered 500 (retried).
                proxy.plan = ["ok", "500-after"]
                client = PlatformClient(api_key=self.api_key, base_url=proxy.url, backoff_base=0.05)
                progress = []
                result = client.deploy_directory(folder, app_id=app["appId"], spa=True, concurrency=1, on_progress=progress.append)
                self.assertEqual((result["files"], result["uploaded"]["files"]), (3, 2))
                self.assertEqual(result["deployment"]["files"]["count"], 3)
                self.assertEqual(result["deployment"]["config"], {"spa": True})
                puts = [s[2] for s in proxy.seen if s[1] == "PUT"]
                self.assertEqual((len(puts), len(set(puts))), (3, 2))  # two files, the first twice (its retry)
                self.assertEqual(len([s for s in proxy.seen if s[1] == "POST" and s[2] == "/v1/apps/deploy"]), 2)
                self.assertEqual([p["phase"] for p in progress].count("uploading"), 2)
                self.assertEqual(progress[-1]["phase"], "deployed")
                # Nothing changed: nothing uploaded, one deploy.
                seen = len(proxy.seen)
                again = client.deploy_directory(folder, app_id=app["appId"], spa=True)
                self.assertEqual(again["uploaded"], {"files": 0, "bytes": 0})
                self.assertEqual([s[1] for s in proxy.seen[seen:]], ["POST"])
            finally:
                proxy.close()
        finally:
            shutil.rmtree(folder)

    def test_publish_roll_back_unpublish_and_the_catalogue(self):
        app = self.client.apps.create(name="Py publish", slug=f"py-publish-{int(time.time() * 1000)}", visibility="public")
        self.assertEqual((app["publishState"], app["publicUrl"]), ("draft", None))
        first = self.client.deployments.deploy(app_id=app["appId"], env="production")["deploymentId"]
        second = self.client.deployments.deploy(app_id=app["appId"], env="production")["deploymentId"]
        published = self.client.apps.publish(app["appId"])
        self.assertEqual((published["publishState"], published["publishedDeploymentId"]), ("published", second))
        self.assertTrue(published["publicUrl"].endswith(f"/p/{app['slug']}/"))
        rolled_back = self.client.apps.publish(app["appId"], deployment_id=first)
        self.assertEqual(rolled_back["publishedDeploymentId"], first)
        listed = [entry for entry in self.client.catalog.list() if entry["slug"] == app["slug"]]
        self.assertEqual([entry["publicUrl"] for entry in listed], [published["publicUrl"]])
        unpublished = self.client.apps.unpublish(app["appId"])
        self.assertEqual((unpublished["publishState"], unpublished["publicUrl"]), ("unpublished", None))
        self.assertNotIn(app["slug"], [entry["slug"] for entry in self.client.catalog.list()])
        renamed = self.client.apps.update(app["appId"], slug=app["slug"] + "-new", visibility="unlisted")
        self.assertEqual((renamed["slug"], renamed["visibility"]), (app["slug"] + "-new", "unlisted"))

    def test_split_tests(self):
        app = self.client.apps.create(name="Py split", slug=f"py-split-{int(time.time() * 1000)}")
        a = self.client.deployments.deploy(app_id=app["appId"], env="production")["deploymentId"]
        b = self.client.deployments.deploy(app_id=app["appId"], env="production")["deploymentId"]
        self.client.apps.publish(app["appId"], deployment_id=a)
        variants = [{"deploymentId": a, "weight": 50}, {"deploymentId": b, "weight": 50}]
        started = self.client.splits.start(app["appId"], variants)
        self.assertTrue(started["id"].startswith("spl_"))
        self.assertEqual(started["variants"], variants)
        results = self.client.splits.get(app["appId"])
        self.assertEqual([(v["deploymentId"], v["visitors"], v["chanceToBeatFirst"]) for v in results["variants"]],
                         [(a, 0, None), (b, 0, None)])
        with self.assertRaises(ValidationError) as bad:
            self.client.splits.start(app["appId"], [{"deploymentId": a, "weight": 60}, {"deploymentId": b, "weight": 30}])
        self.assertIn("variants weights must sum to 100", str(bad.exception))
        self.client.apps.publish(app["appId"], deployment_id=b)  # publishing ends the test
        with self.assertRaises(NotFoundError) as none:
            self.client.splits.get(app["appId"])
        self.assertEqual(none.exception.reason, "split_not_found")
        with self.assertRaises(NotFoundError):
            self.client.splits.end(app["appId"])

    def test_custom_domains(self):
        app = self.client.apps.create(name="Py domains")
        hostname = f"py-{int(time.time() * 1000)}.Example.COM"
        domain = self.client.domains.create(app["appId"], hostname)
        self.assertEqual((domain["hostname"], domain["status"]), (hostname.lower(), "pending"))
        self.assertEqual(domain["verification"]["name"], f"_platform-challenge.{hostname.lower()}")
        self.assertEqual((domain["target"]["type"], domain["target"]["name"]), ("CNAME", hostname.lower()))
        self.assertEqual(self.client.domains.get(domain["id"])["verification"], domain["verification"])
        self.assertEqual([d["id"] for d in self.client.domains.list(app["appId"])], [domain["id"]])
        # Nothing at the challenge name: still pending, with what the check found.
        checked = self.client.domains.verify(domain["id"])
        self.assertEqual(checked["status"], "pending")
        self.assertIn(checked["lastCheck"]["result"], ("no_record", "resolver_error"))
        with self.assertRaises(ConflictError) as again:
            self.client.domains.create(app["appId"], hostname)
        self.assertEqual(again.exception.reason, "domain_exists")
        with self.assertRaises(ValidationError) as ip:
            self.client.domains.create(app["appId"], "192.0.2.1")
        self.assertEqual(ip.exception.reason, "hostname_ip")
        self.client.domains.delete(domain["id"])
        with self.assertRaises(NotFoundError):
            self.client.domains.get(domain["id"])

    def test_billing(self):
        billing = self.client.billing.get()
        self.assertEqual(billing["plan"], {"id": "free", "name": "Free"})
        self.assertEqual([u["meter"] for u in billing["usage"]],
                         ["api.requests", "ai.tokens", "deployments", "analytics.events", "webhook.deliveries",
                          "bandwidth.bytes", "storage.bytes", "functions.requests", "functions.duration_ms"])
        statements = list(self.client.billing.statements())
        self.assertEqual(statements[0]["status"], "open")
        self.assertEqual(statements[0]["period"], billing["period"])

    def test_members_and_the_audit_log(self):
        account = create_account()
        client = PlatformClient(api_key=account["apiKey"], base_url=self.base_url, backoff_base=0.05)
        owner = next(client.members.list())
        self.assertEqual(owner["role"], "owner")
        invitation = client.members.invite(email=f"py-{time.time_ns()}@example.com", role="viewer")
        self.assertEqual(invitation["role"], "viewer")
        self.assertIn("/portal/join/", invitation["invitationUrl"])
        # Demoting an owner is for an owner signed in to the portal: never a key.
        with self.assertRaises(PermissionDeniedError) as refused:
            client.members.change_role(owner["id"], "admin")
        self.assertEqual(refused.exception.body["reason"], "owner_member_required")
        with self.assertRaises(NotFoundError):
            client.members.remove("mem_unknown")
        invited = list(client.audit_log.list(action="member.invited"))
        self.assertEqual([e["target"]["id"] for e in invited], [invitation["id"]])
        self.assertEqual(invited[0]["actor"]["type"], "credential")
        # Pending invitations: listed (never their link), revoked once.
        other = client.members.invite(email=f"py-other-{time.time_ns()}@example.com", role="developer")
        pending = list(client.members.invitations(limit=1))
        self.assertEqual([i["id"] for i in pending], [other["id"], invitation["id"]])
        self.assertEqual(pending[0]["invitedBy"], None)
        self.assertNotIn("invitationUrl", pending[0])
        client.members.revoke_invitation(invitation["id"])
        self.assertEqual([i["id"] for i in client.members.invitations()], [other["id"]])
        with self.assertRaises(NotFoundError) as gone:
            client.members.revoke_invitation(invitation["id"])
        self.assertEqual(gone.exception.body["reason"], "invitation_not_found")

    def test_single_sign_on_settings(self):
        account = create_account()
        client = PlatformClient(api_key=account["apiKey"], base_url=self.base_url, backoff_base=0.05)
        with self.assertRaises(NotFoundError):
            client.sso.get()
        # No key changes single sign-on, not even the account's first: an owner does, signed in to the portal.
        with self.assertRaises(PermissionDeniedError) as refused:
            client.sso.configure(issuer="https://idp.example.com", client_id="c", client_secret="s",
                                 domains=["example.com"], default_role="developer")
        self.assertEqual(refused.exception.body["reason"], "owner_member_required")
        with self.assertRaises(PermissionDeniedError):
            client.sso.remove()
        # The operator turns it off (here: nothing is set up).
        _, admin_token = require_server()
        with self.assertRaises(NotFoundError) as none:
            PlatformClient(api_key=admin_token, base_url=self.base_url).admin.remove_sso(account["accountId"])
        self.assertEqual(none.exception.body["reason"], "sso_not_configured")

    def test_analytics(self):
        app = self.client.apps.create(name="Py analytics")
        deployment = self.client.deployments.deploy(app_id=app["appId"], env="production")
        ua = "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0"
        urllib.request.urlopen(urllib.request.Request(deployment["url"], headers={"user-agent": ua})).read()
        beacon = json.dumps({"appId": app["appId"], "name": "pageview", "url": "https://py.example/docs"}).encode()
        urllib.request.urlopen(urllib.request.Request(self.base_url + "/collect", data=beacon, method="POST",
                                                      headers={"user-agent": ua, "content-type": "text/plain"})).read()
        # Pageviews are written in batches, at the latest a second later.
        deadline = time.time() + 10
        while True:
            result = self.client.analytics.aggregate(app["appId"], period="day", metrics=["visitors", "pageviews", "visits"])
            if result["results"]["pageviews"]["value"] == 2 or time.time() > deadline:
                break
            time.sleep(0.2)
        self.assertEqual(result["results"], {"visitors": {"value": 1}, "pageviews": {"value": 2}, "visits": {"value": 1}})
        filtered = self.client.analytics.aggregate(app["appId"], period="day", filters={"page": "/docs", "browser": "Firefox"},
                                                   metrics=["pageviews"])
        self.assertEqual(filtered["results"], {"pageviews": {"value": 1}})
        pages = [row["page"] for row in self.client.analytics.breakdown(app["appId"], "page", period="day", limit=1)]
        self.assertEqual(sorted(pages), ["/", "/docs"])
        series = self.client.analytics.timeseries(app["appId"], period="day", interval="hour", metrics=["pageviews"])
        self.assertEqual(len(series["results"]), 24)
        self.assertEqual(self.client.analytics.realtime(app["appId"]), {"visitors": 1})
        with self.assertRaises(ValidationError) as ctx:
            self.client.analytics.aggregate(app["appId"], metrics=["clicks"])
        self.assertIn('metric "clicks" is unknown', ctx.exception.message)

    def test_reports_need_a_member(self):
        app = self.client.apps.create(name="Py reports")
        # The account's first key (made by the operator) acts for no member: reports are a member's own.
        with self.assertRaises(PermissionDeniedError) as ctx:
            self.client.reports.get(app["appId"])
        self.assertEqual(ctx.exception.reason, "report_member_required")
        with self.assertRaises(PermissionDeniedError):
            self.client.reports.set(app["appId"], weekly=True)
        with self.assertRaises(NotFoundError):
            self.client.reports.get("app_00000000000000000000000000")

    def test_goals_and_custom_events(self):
        app = self.client.apps.create(name="Py goals")
        ua = "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0"
        beacon = json.dumps({"appId": app["appId"], "name": "Download", "url": "https://py.example/docs", "props": {"plan": "pro"}}).encode()
        urllib.request.urlopen(urllib.request.Request(self.base_url + "/collect", data=beacon, method="POST",
                                                      headers={"user-agent": ua, "content-type": "text/plain"})).read()
        goal = self.client.goals.create(app["appId"], event="Download")
        self.assertEqual((goal["name"], goal["event"]), ("Download", "Download"))
        self.assertEqual(self.client.goals.create(app["appId"], page="/docs/*")["name"], "Visit /docs/*")
        with self.assertRaises(ConflictError):
            self.client.goals.create(app["appId"], event="Download")
        deadline = time.time() + 30  # written in batches by a worker: seconds on a loaded machine
        while True:
            rows = list(self.client.analytics.breakdown(app["appId"], "goal", period="day"))
            if rows or time.time() > deadline:
                break
            time.sleep(0.2)
        self.assertEqual(rows, [{"goal": "Download", "visitors": 1, "events": 1, "conversionRate": 100}])
        props = list(self.client.analytics.breakdown(app["appId"], "props.plan", period="day", filters={"event": "Download"}))
        self.assertEqual(props, [{"props.plan": "pro", "visitors": 1, "events": 1}])
        funnel = list(self.client.analytics.breakdown(app["appId"], "page", period="day", metrics=["visitors", "signups", "conversionRate"],
                                                      goal="Download"))
        self.assertEqual(funnel, [{"page": "/docs", "visitors": 1, "signups": 1, "conversionRate": 100}])
        self.client.goals.delete(app["appId"], goal["id"])
        self.assertEqual([g["name"] for g in self.client.goals.list(app["appId"])], ["Visit /docs/*"])

    @unittest.skipUnless(os.environ.get("PLATFORM_AI") == "local", "the server under test runs no local AI model")
    def test_landing_page(self):
        app = self.client.apps.create(name="Py landing", description="A page from Python")
        initial = self.client.landing_page.get(app["appId"])
        self.assertEqual(initial["source"], "default")
        page = dict(initial["page"], cta={"headline": "Written in Python"})
        edited = self.client.landing_page.put(app["appId"], page)
        self.assertEqual(edited["source"], "manual")
        generated = self.client.landing_page.generate(app["appId"], sections=["hero"])
        self.assertEqual(generated["source"], "generated")
        self.assertEqual(generated["page"]["cta"]["headline"], "Written in Python")
        with self.assertRaises(ValidationError) as ctx:
            self.client.landing_page.put(app["appId"], dict(page, theme={"accent": "red"}))
        self.assertIn("theme.accent", ctx.exception.message)

    def test_retries_a_429_after_retry_after(self):
        proxy = FaultProxy(self.base_url)
        try:
            proxy.plan = ["429", "ok"]
            client = PlatformClient(api_key=self.api_key, base_url=proxy.url)
            started = time.time()
            client.apps.create(name="after 429")
            self.assertGreaterEqual(time.time() - started, 1.0)
            self.assertEqual(len(proxy.seen), 2)
            self.assertGreaterEqual(proxy.seen[1][0] - proxy.seen[0][0], 1.0)
        finally:
            proxy.close()

    def test_a_500_then_success_creates_exactly_one_deployment(self):
        app = self.client.apps.create(name="Once only")
        proxy = FaultProxy(self.base_url)
        try:
            proxy.plan = ["500-after", "ok"]
            client = PlatformClient(api_key=self.api_key, base_url=proxy.url, backoff_base=0.05)
            deployment = client.deployments.deploy(app_id=app["appId"], env="staging")
            posts = [s for s in proxy.seen if s[1] == "POST"]
            self.assertEqual(len(posts), 2)
            self.assertIsNotNone(posts[0][3])
            self.assertEqual(posts[0][3], posts[1][3])  # the same Idempotency-Key on the retry
        finally:
            proxy.close()
        deployments = list(self.client.deployments.list(app["appId"]))
        self.assertEqual([d["deploymentId"] for d in deployments], [deployment["deploymentId"]])

    def test_admin_reissues_an_invite(self):
        _, admin_token = require_server()
        admin = PlatformClient(api_key=admin_token, base_url=self.base_url)
        account = create_account()
        first = account["portalInviteUrl"]
        second = admin.admin.reissue_invite(account["accountId"])
        self.assertEqual(list(second.keys()), ["portalInviteUrl"])
        self.assertRegex(second["portalInviteUrl"], r"/portal/invite/[A-Za-z0-9_-]{32}$")
        self.assertNotEqual(second["portalInviteUrl"], first)
        with self.assertRaises(NotFoundError) as ctx:
            admin.admin.reissue_invite("acc_missing")
        self.assertEqual(ctx.exception.status, 404)

    def test_a_401_raises_the_auth_error(self):
        client = PlatformClient(api_key="sk_" + "x" * 40, base_url=self.base_url)
        with self.assertRaises(AuthenticationError) as ctx:
            list(client.apps.list())
        self.assertEqual(ctx.exception.status, 401)
        self.assertEqual(ctx.exception.code, 401)
        self.assertTrue(ctx.exception.request_id)

    @unittest.skipUnless(os.environ.get("PLATFORM_AI") == "local", "the server under test runs no local AI model")
    def test_ai_generate_and_stream(self):
        result = self.client.ai.generate(prompt="Once upon a time", max_tokens=8)
        self.assertTrue(result["text"])
        self.assertGreater(result["usage"]["completionTokens"], 0)
        chunks = list(self.client.ai.stream(prompt="Once upon a time", max_tokens=8))
        self.assertGreater(len(chunks), 1)
        self.assertGreater(self.client.ai.last_usage["totalTokens"], 0)

    @unittest.skipUnless(os.environ.get("PLATFORM_AI") == "local", "the server under test runs no local AI model")
    def test_ai_speaks_openai_models_chat_stream_embeddings(self):
        models = self.client.ai.models()
        self.assertEqual([m["id"] for m in models], ["stories260K"])
        completion = self.client.ai.chat("stories260K", [{"role": "user", "content": "Tell me a story"}], max_tokens=6)
        self.assertEqual(completion["object"], "chat.completion")
        self.assertEqual(completion["usage"]["completion_tokens"], 6)
        chunks = list(self.client.ai.chat_stream("stories260K", [{"role": "user", "content": "Tell me a story"}], max_tokens=6))
        self.assertEqual(chunks[-1]["choices"], [])
        self.assertEqual(chunks[-1]["usage"]["completion_tokens"], 6)
        embeddings = self.client.ai.embeddings("stories260K", ["a cat", "a dog"])
        self.assertEqual([d["index"] for d in embeddings["data"]], [0, 1])
        with self.assertRaises(ValidationError) as ctx:
            self.client.ai.chat("gpt-9", [{"role": "user", "content": "hi"}])
        self.assertEqual(ctx.exception.reason, "model_not_found")

    def _first_delivery(self, app_name):
        """An endpoint for app.* and the raw body and headers of its first delivery (an app.created)."""
        receiver = Receiver()
        try:
            endpoint = self.client.webhook_endpoints.create(url=receiver.url, events=["app.*"])
            self.client.apps.create(name=app_name)
            receiver.wait_for(1)
            raw, headers = receiver.deliveries[0]
            return endpoint, raw, headers
        finally:
            receiver.close()

    def test_verifies_a_real_delivery(self):
        endpoint, raw, headers = self._first_delivery("Hooked")
        event = verify_webhook(raw, headers["x-service-signature"], endpoint["secret"])
        self.assertEqual(event["event"], "app.created")
        self.assertEqual(event["id"], headers["x-service-event-id"])
        for name, args in {
            "tampered": (raw.replace(b"Hooked", b"Hacked"), headers["x-service-signature"], endpoint["secret"]),
            "wrong secret": (raw, headers["x-service-signature"], "whsec_wrong"),
        }.items():
            with self.subTest(name), self.assertRaises(WebhookVerificationError):
                verify_webhook(*args)
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(raw, headers["x-service-signature"], endpoint["secret"], now=time.time() + 400)

    def test_recovers_failed_deliveries_and_shows_the_log(self):
        receiver = Receiver()
        receiver.status = 503
        try:
            since = datetime.now(timezone.utc) - timedelta(minutes=1)
            endpoint = self.client.webhook_endpoints.create(url=receiver.url, events=["app.created"])
            self.client.apps.create(name="Recovered")
            end = time.time() + 15
            while True:
                deliveries = self.client.webhook_endpoints.deliveries(endpoint["id"])["data"]
                if deliveries and deliveries[0]["status"] == "failed":
                    break
                self.assertLess(time.time(), end, "the delivery did not fail in time")
                time.sleep(0.1)
            delivery = deliveries[0]
            self.assertEqual(delivery["payload"]["event"], "app.created")
            self.assertIsNone(delivery["nextAttemptAt"])
            self.assertEqual([a["statusCode"] for a in delivery["attempts"]], [503, 503, 503, 503])
            self.assertEqual([a["nextAttemptAt"] is not None for a in delivery["attempts"]], [True, True, True, False])
            receiver.status = 200
            self.assertEqual(self.client.webhook_endpoints.recover(endpoint["id"], since), {"queued": 1})
            receiver.wait_for(5)
            self.assertEqual(receiver.deliveries[4][1]["x-service-delivery-attempt"], "5")
            self.assertEqual(self.client.webhook_endpoints.recover(endpoint["id"], since.isoformat()), {"queued": 0})
            with self.assertRaises(ValidationError):
                self.client.webhook_endpoints.recover(endpoint["id"], "yesterday")
        finally:
            receiver.close()

    @unittest.skipIf(
        StandardWebhook is None,
        "the Python standardwebhooks package is not installed (PyPI is not reachable from this machine); "
        "the npm standardwebhooks package verifies every delivery in the TypeScript suites",
    )
    def test_verifies_with_the_standardwebhooks_package(self):
        endpoint, raw, headers = self._first_delivery("Standard")
        self.assertEqual(StandardWebhook(endpoint["secret"]).verify(raw, headers)["event"], "app.created")

if __name__ == "__main__":
    unittest.main()
