"""Server code through the SDK: variables and secrets, a deploy with config.functions, its logs read and followed."""
import hashlib
import threading
import time
import unittest
import unittest.mock
import urllib.parse
import urllib.request

from platform_sdk import NotFoundError, PlatformClient, ValidationError

from .support import create_account, require_server

SERVER = b"""
export default {
  async fetch(request, env) {
    console.log('hello from python', new URL(request.url).pathname);
    return Response.json({ greeting: env.GREETING, hasKey: typeof env.API_KEY === 'string' });
  },
};
"""


def visit(url: str, path: str) -> bytes:
    """A visitor's GET on the deployment's own origin (<label>.localhost), sent to the server's address with that Host."""
    site = urllib.parse.urlparse(url)
    base = urllib.parse.urlparse(require_server()[0])
    request = urllib.request.Request(f"http://{base.hostname}:{base.port}{path}", headers={"Host": site.netloc})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.read()


class FunctionsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.base_url, _ = require_server()
        cls.client = PlatformClient(api_key=create_account()["apiKey"], base_url=cls.base_url, backoff_base=0.05)

    def test_variables_and_secrets(self):
        app_id = self.client.apps.create(name="Py vars")["appId"]
        plain = self.client.env.set(app_id, "production", "GREETING", "hello")
        self.assertEqual(plain, {"name": "GREETING", "secret": False, "value": "hello", "updatedAt": plain["updatedAt"]})
        secret = self.client.env.set(app_id, "production", "API_KEY", "sk_live_python", secret=True)
        self.assertEqual(secret, {"name": "API_KEY", "secret": True, "updatedAt": secret["updatedAt"]})
        listed = self.client.env.list(app_id, "production")
        self.assertEqual(sorted(v["name"] for v in listed), ["API_KEY", "GREETING"])
        self.assertNotIn("sk_live_python", repr(listed))
        self.assertEqual(self.client.env.list(app_id, "staging"), [])

        with self.assertRaises(ValidationError) as bad:
            self.client.env.set(app_id, "production", "PLATFORM_TOKEN", "x")
        self.assertIn("PLATFORM_", bad.exception.message)
        with self.assertRaises(ValidationError):
            self.client.env.set(app_id, "production", "lower-case", "x")
        self.client.env.remove(app_id, "production", "GREETING")
        self.assertEqual([v["name"] for v in self.client.env.list(app_id, "production")], ["API_KEY"])
        with self.assertRaises(NotFoundError):
            self.client.env.remove(app_id, "production", "GREETING")
        other = PlatformClient(api_key=create_account()["apiKey"], base_url=self.base_url)
        with self.assertRaises(NotFoundError):
            other.env.list(app_id, "production")

    def test_deploys_server_code_and_reads_and_follows_its_logs(self):
        app_id = self.client.apps.create(name="Py functions")["appId"]
        self.client.env.set(app_id, "production", "GREETING", "hi from env")
        self.client.env.set(app_id, "production", "API_KEY", "sk_live_python", secret=True)
        files = {"/index.html": b"<!doctype html><h1>Py</h1>", "/_server/index.js": SERVER}
        for data in files.values():
            self.client.upload_file(data)
        manifest = {path: hashlib.sha256(data).hexdigest() for path, data in files.items()}
        deployment = self.client.deployments.deploy(app_id, "production", files=manifest,
                                                    config={"functions": {"entry": "/_server/index.js"}})
        deployment_id = deployment["deploymentId"]
        details = self.client.deployments.get(deployment_id)
        self.assertEqual(sorted(details["variables"]), ["API_KEY", "GREETING"])
        self.assertEqual(details["config"]["functions"]["routes"], ["/api/*"])

        self.assertEqual(visit(deployment["url"], "/api/first"), b'{"greeting":"hi from env","hasKey":true}')
        end = time.time() + 10
        while not any(line["level"] == "request" for line in self.client.deployments.logs(deployment_id)):
            self.assertLess(time.time(), end, "no request line within 10 s")
            time.sleep(0.2)
        lines = self.client.deployments.logs(deployment_id, limit=1000)
        self.assertIn({"at": unittest.mock.ANY, "level": "info", "message": "hello from python /api/first"}, lines)
        self.assertEqual(len(self.client.deployments.logs(deployment_id, limit=1)), 1)

        # Following: the stream is open once follow_logs returns; its lines are read in a thread while a visitor comes.
        followed = []
        stream = self.client.deployments.follow_logs(deployment_id, timeout=30)

        def follow():
            for line in stream:
                followed.append(line)
                if line["level"] == "request":
                    break  # closes the stream

        reader = threading.Thread(target=follow)
        reader.start()
        time.sleep(0.5)  # the server has taken its starting point
        visit(deployment["url"], "/api/second")
        reader.join(20)
        self.assertFalse(reader.is_alive())
        messages = [line["message"] for line in followed]
        self.assertIn("hello from python /api/second", messages)
        self.assertNotIn("hello from python /api/first", messages)  # from now on, not the past
        self.assertRegex(followed[-1]["message"], r"^GET /api/second 200 \d+ms$")

        with self.assertRaises(NotFoundError):
            PlatformClient(api_key=create_account()["apiKey"], base_url=self.base_url).deployments.logs(deployment_id)


if __name__ == "__main__":
    unittest.main()
