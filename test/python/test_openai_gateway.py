"""The official `openai` package for Python against the platform's OpenAI-compatible routes.

Run by test/ai-gateway-python.e2e-spec.ts (which starts the server and makes the keys):
PLATFORM_BASE_URL, PLATFORM_API_KEY, PLATFORM_MODEL, and PLATFORM_SPENT_KEY (a key whose AI budget is used up).
"""
import os
import unittest

import openai
from openai import OpenAI

BASE_URL = os.environ["PLATFORM_BASE_URL"] + "/v1"
MODEL = os.environ["PLATFORM_MODEL"]
STUB_TEXT = "The stub says hello."


def client(key=None):
    return OpenAI(base_url=BASE_URL, api_key=key or os.environ["PLATFORM_API_KEY"], max_retries=0)


class OpenAiPythonClientTest(unittest.TestCase):
    def test_lists_the_models(self):
        self.assertEqual([m.id for m in client().models.list()], [MODEL])

    def test_chat_completion(self):
        completion = client().chat.completions.create(
            model=MODEL,
            messages=[{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Say hello"}],
            max_tokens=20,
        )
        self.assertTrue(completion.id.startswith("chatcmpl-"))
        self.assertEqual(completion.model, MODEL)
        self.assertEqual(completion.choices[0].message.content, STUB_TEXT)
        self.assertEqual(completion.choices[0].finish_reason, "stop")
        self.assertEqual(completion.usage.completion_tokens, 5)
        self.assertEqual(completion.usage.total_tokens, completion.usage.prompt_tokens + 5)

    def test_streaming_with_usage(self):
        stream = client().chat.completions.create(
            model=MODEL,
            messages=[{"role": "user", "content": "Stream please"}],
            stream=True,
            stream_options={"include_usage": True},
        )
        chunks = list(stream)
        self.assertEqual("".join(c.choices[0].delta.content or "" for c in chunks if c.choices), STUB_TEXT)
        self.assertEqual(chunks[-1].choices, [])
        self.assertEqual(chunks[-1].usage.completion_tokens, 5)
        self.assertTrue(all(c.object == "chat.completion.chunk" and c.model == MODEL for c in chunks))

    def test_embeddings(self):
        # The client asks for base64 by default and decodes it; floats asked for explicitly must agree.
        default = client().embeddings.create(model=MODEL, input=["first text", "second"])
        floats = client().embeddings.create(model=MODEL, input=["first text", "second"], encoding_format="float")
        self.assertEqual(len(default.data), 2)
        self.assertEqual(len(default.data[0].embedding), 8)
        for a, b in zip(default.data[0].embedding, floats.data[0].embedding):
            self.assertAlmostEqual(a, b, places=5)
        self.assertEqual(default.usage.prompt_tokens, 3)

    def test_an_invalid_key_raises_authentication_error(self):
        with self.assertRaises(openai.AuthenticationError) as ctx:
            client("sk_" + "x" * 40).chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "hi"}])
        self.assertEqual(ctx.exception.status_code, 401)

    def test_an_unknown_model_raises_bad_request_error_naming_it(self):
        with self.assertRaises(openai.BadRequestError) as ctx:
            client().chat.completions.create(model="gpt-unknown", messages=[{"role": "user", "content": "hi"}])
        self.assertEqual(ctx.exception.status_code, 400)
        self.assertIn("model_not_found", str(ctx.exception))
        self.assertIn("gpt-unknown", str(ctx.exception))

    @unittest.skipUnless(os.environ.get("PLATFORM_SPENT_KEY"), "no key with a spent AI budget was made")
    def test_an_exhausted_budget_raises_rate_limit_error_without_retrying(self):
        spent = OpenAI(base_url=BASE_URL, api_key=os.environ["PLATFORM_SPENT_KEY"])  # the client's default retries
        with self.assertRaises(openai.RateLimitError) as ctx:
            spent.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "hi"}], max_tokens=5)
        self.assertEqual(ctx.exception.status_code, 429)
        self.assertIn("ai_budget_exhausted", str(ctx.exception))
        self.assertGreater(int(ctx.exception.response.headers["retry-after"]), 0)
        self.assertEqual(ctx.exception.response.headers["x-should-retry"], "false")


if __name__ == "__main__":
    unittest.main()
