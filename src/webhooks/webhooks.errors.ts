import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const WebhooksErrorCode = errorCodes({
  EndpointNotFound: ['webhook_endpoint_not_found', 404],
  DeliveryNotFound: ['webhook_delivery_not_found', 404],
  NothingToUpdate: ['nothing_to_update', 400],
  UrlRefused: ['webhook_url_refused', 400],
  EndpointDisabled: ['webhook_endpoint_disabled', 409],
  DeliveryInFlight: ['webhook_delivery_in_flight', 409],
});
export type WebhooksErrorCode = ErrorCode<typeof WebhooksErrorCode>;

export class WebhooksError extends PlatformError.of(WebhooksErrorCode) {
  static endpointNotFound(id: string): WebhooksError {
    return new WebhooksError(WebhooksErrorCode.EndpointNotFound, `Webhook endpoint ${id} not found`);
  }

  static deliveryNotFound(id: string): WebhooksError {
    return new WebhooksError(WebhooksErrorCode.DeliveryNotFound, `Webhook delivery ${id} not found`);
  }

  static nothingToUpdate(fields: string[]): WebhooksError {
    return new WebhooksError(WebhooksErrorCode.NothingToUpdate, `Send at least one of ${fields.join(', ')}`);
  }

  /** `problem` comes from the URL guard and starts with "url". */
  static urlRefused(problem: string): WebhooksError {
    return new WebhooksError(WebhooksErrorCode.UrlRefused, problem);
  }

  static endpointDisabled(id: string): WebhooksError {
    return new WebhooksError(WebhooksErrorCode.EndpointDisabled, `Webhook endpoint ${id} is Disabled; set its status to Active first`);
  }

  static deliveryInFlight(id: string): WebhooksError {
    return new WebhooksError(WebhooksErrorCode.DeliveryInFlight, `Webhook delivery ${id} has an attempt under way; retry once it has ended`);
  }
}
