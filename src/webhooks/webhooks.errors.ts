import { PlatformError } from '../common/errors/platform-error.js';

export enum WebhooksErrorCode {
  EndpointNotFound = 'webhook_endpoint_not_found',
  DeliveryNotFound = 'webhook_delivery_not_found',
  NothingToUpdate = 'nothing_to_update',
  UrlRefused = 'webhook_url_refused',
  EndpointDisabled = 'webhook_endpoint_disabled',
  DeliveryInFlight = 'webhook_delivery_in_flight',
}

export class WebhooksError extends PlatformError<WebhooksErrorCode> {
  protected readonly statuses = {
    [WebhooksErrorCode.EndpointNotFound]: 404,
    [WebhooksErrorCode.DeliveryNotFound]: 404,
    [WebhooksErrorCode.NothingToUpdate]: 400,
    [WebhooksErrorCode.UrlRefused]: 400,
    [WebhooksErrorCode.EndpointDisabled]: 409,
    [WebhooksErrorCode.DeliveryInFlight]: 409,
  };

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
