/** The part of oidc-provider 8 (which ships no types) the test harness uses (test/support/oidc-provider.ts). */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface KoaContext {
    path: string;
    method: string;
    body: unknown;
  }

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    on(event: string, listener: (...args: unknown[]) => void): void;
    proxy: boolean;
  }
  export default Provider;
}
