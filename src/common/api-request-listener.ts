/**
 * Told of every authenticated API request (under /v1) once, by the rate limiter as it counts it —
 * a 429 included. Billing binds it to ApiRequestMeter (the `api.requests` meter), see
 * BillingBindingsModule, so the rate limiter meters nothing itself. Called on every request: it
 * must not wait for anything.
 */
export abstract class ApiRequestListener {
  abstract onApiRequest(accountId: string): void;
}
