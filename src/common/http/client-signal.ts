import type { FastifyReply } from 'fastify';

export interface ClientSignal {
  /** Aborts when the client closes the connection before the answer is sent. */
  signal: AbortSignal;
  /** Stops watching now (the watch also ends when the response closes: its answer sent, the close is no abort). */
  dispose(): void;
}

/** Long work (AI generation) stops when nobody is left to read its answer. */
export function watchClient(reply: FastifyReply): ClientSignal {
  const client = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) client.abort(new Error('client closed the connection'));
  };
  reply.raw.once('close', onClose);
  return { signal: client.signal, dispose: () => reply.raw.off('close', onClose) };
}
