import { Injectable, RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';

/**
 * Puts the IdempotencyInterceptor first on every POST route, as `@UseInterceptors` would, when the
 * application is created (before its routes are). Not a global interceptor: Nest runs global
 * interceptors on every request, and its interceptor pipeline (RxJS, async scopes) costs a GET
 * about a tenth of its CPU (docs/decisions/2026-11-24-idempotency-on-post-routes.md) for a header only a POST honours.
 */
@Injectable()
export class IdempotencyRoutes {
  constructor(discovery: DiscoveryService, scanner: MetadataScanner, interceptor: IdempotencyInterceptor) {
    for (const controller of discovery.getControllers()) {
      const prototype = (controller.metatype as { prototype?: Record<string, unknown> } | null)?.prototype;
      if (!prototype) continue;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name] as object;
        if (Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.POST) continue;
        // Another application created in this process (tests) bound its own instance: replace it.
        const others = ((Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? []).filter(
          (i) => !(i instanceof IdempotencyInterceptor),
        );
        Reflect.defineMetadata(INTERCEPTORS_METADATA, [interceptor, ...others], handler);
      }
    }
  }
}
