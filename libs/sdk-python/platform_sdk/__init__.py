"""Python client for the Application Platform API. Standard library only, Python >= 3.9."""
from .client import ClientCredentialsTokenProvider, PlatformClient
from .errors import (APIConnectionError, AuthenticationError, ConflictError, NotFoundError, PermissionDeniedError,
                     PlatformError, RateLimitError, ServerError, ValidationError)
from .webhooks import WebhookVerificationError, sign, signature_header, verify_webhook

__all__ = [
    "PlatformClient", "ClientCredentialsTokenProvider", "PlatformError", "ValidationError", "AuthenticationError",
    "PermissionDeniedError", "NotFoundError", "ConflictError", "RateLimitError", "ServerError", "APIConnectionError",
    "verify_webhook", "sign", "signature_header", "WebhookVerificationError",
]
