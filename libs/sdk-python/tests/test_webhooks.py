import json
import unittest

from platform_sdk import WebhookVerificationError, sign, signature_header, verify_webhook

KNOWN_VECTOR = "35495024f4ef3f94e5a93e22221544c4b75e9a42300cd965ab81cb85cd994e91"

BODY = json.dumps({"id": "evt_1", "event": "user.created", "createdAt": "2026-11-22T00:00:00.000Z",
                   "data": {"id": "usr_1", "email": "a@example.com", "appId": "app_1"}}, separators=(",", ":")).encode()


class VerifyWebhookTest(unittest.TestCase):
    def test_known_vector(self):
        # HMAC-SHA256(key="whsec_test", msg="1700000000.{}"), computed independently with openssl.
        self.assertEqual(sign("whsec_test", 1700000000, b"{}"), KNOWN_VECTOR)
        self.assertEqual(sign("whsec_test", 1700000000, "{}"), KNOWN_VECTOR)

    def test_valid_signature_returns_the_event(self):
        header = signature_header(["whsec_a"], BODY, 1_700_000_000)
        event = verify_webhook(BODY, header, "whsec_a", now=1_700_000_010)
        self.assertEqual(event["event"], "user.created")

    def test_any_of_several_v1_values(self):
        header = signature_header(["whsec_old", "whsec_new"], BODY, 1_700_000_000)
        self.assertEqual(header.count("v1="), 2)
        verify_webhook(BODY, header, "whsec_old", now=1_700_000_000)
        verify_webhook(BODY, header, "whsec_new", now=1_700_000_000)

    def test_rejections(self):
        header = signature_header(["whsec_a"], BODY, 1_700_000_000)
        cases = {
            "tampered body": (BODY.replace(b"a@example.com", b"b@example.com"), header, "whsec_a", 1_700_000_000),
            "wrong secret": (BODY, header, "whsec_b", 1_700_000_000),
            "stale timestamp": (BODY, header, "whsec_a", 1_700_000_000 + 301),
            "missing header": (BODY, None, "whsec_a", 1_700_000_000),
            "malformed header": (BODY, "v1=abc", "whsec_a", 1_700_000_000),
        }
        for name, (body, hdr, secret, now) in cases.items():
            with self.subTest(name):
                with self.assertRaises(WebhookVerificationError):
                    verify_webhook(body, hdr, secret, now=now)


if __name__ == "__main__":
    unittest.main()
