import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { AppConfig } from '../config/app-config.js';

/** One e-mail: to one address; `text` always, `html` as well when given (a multipart/alternative). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra header lines (`List-Unsubscribe`): a value with a line break is refused, never sent. */
  headers?: Record<string, string>;
}

/**
 * What became of a message: sent (the SMTP server took it), or why not — no SMTP_URL, an address
 * that is not one plain address (refused before any connection), or the server failing (logged).
 */
export type MailOutcome = { sent: true } | { sent: false; reason: 'not-configured' | 'refused' | 'failed' };

/** One plain address: no name, no list, nothing that could end a header line. */
const PLAIN_ADDRESS = /^[^\s<>@",;:\\()[\]]+@[^\s<>@",;:\\()[\]]+$/;
/** How long the SMTP server has to connect, greet and answer: a server that hangs fails the send, it does not hold it. */
const TIMEOUT_MS = 10_000;
/** The most time shutdown waits for e-mails still being sent (`later`). */
const SHUTDOWN_WAIT_MS = 15_000;

/**
 * Sends e-mail over SMTP_URL (nodemailer), From SMTP_FROM. Never throws: a send answers a
 * MailOutcome, and a failure is logged (never the message's address or body: they may hold a
 * credential), so an SMTP outage shows as "not sent" on a page, never as a 500. `later` runs a
 * task that sends after the answer has gone (a page that must answer alike whether or not it
 * e-mails); shutdown waits for such tasks a while.
 */
@Injectable()
export class Mailer implements OnApplicationShutdown {
  private readonly logger = new Logger('Mailer');
  private readonly transport?: Transporter;
  private readonly from?: string;
  private readonly pending = new Set<Promise<void>>();

  constructor(config: AppConfig) {
    if (!config.SMTP_URL) return;
    this.from = config.SMTP_FROM;
    this.transport = createTransport({
      url: config.SMTP_URL,
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
      // Messages are built here from strings: nothing may make nodemailer read a file or fetch a URL.
      disableFileAccess: true,
      disableUrlAccess: true,
    });
  }

  /** Whether SMTP_URL is set: pages that e-mail say so when it is not. */
  get configured(): boolean {
    return this.transport !== undefined;
  }

  async send(message: MailMessage): Promise<MailOutcome> {
    if (!this.transport) return { sent: false, reason: 'not-configured' };
    if (Object.values(message.headers ?? {}).some((value) => /[\r\n\0]/.test(value))) {
      this.logger.warn('E-mail not sent: a header value holds a line break');
      return { sent: false, reason: 'refused' };
    }
    if (!PLAIN_ADDRESS.test(message.to)) {
      this.logger.warn('E-mail not sent: its recipient is not one plain e-mail address');
      return { sent: false, reason: 'refused' };
    }
    try {
      await this.transport.sendMail({
        from: this.from,
        to: message.to,
        // A subject is one line, whatever it was built from.
        subject: message.subject.replace(/[\r\n\t\0]+/g, ' '),
        text: message.text,
        html: message.html,
        headers: message.headers,
      });
      return { sent: true };
    } catch (err) {
      const { message: reason, code } = err as { message?: string; code?: string };
      this.logger.error({ err: { message: reason, code } }, `E-mail not sent: ${reason ?? 'unknown error'}`);
      return { sent: false, reason: 'failed' };
    }
  }

  /**
   * Runs `task` (which sends, and whatever it must look up first) without waiting for it: the caller
   * answers at once, alike whatever the task finds. Its failure is logged.
   */
  later(task: () => Promise<unknown>): void {
    const running: Promise<void> = task()
      .then(() => undefined)
      .catch((err: unknown) => this.logger.error({ err }, 'E-mail task failed'))
      .finally(() => this.pending.delete(running));
    this.pending.add(running);
  }

  /** Settles once every task `later` has started so far has ended (tests wait for it; shutdown does, a while). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  /** Waits (a while) for the e-mails `later` is still sending, then closes the connections. */
  async onApplicationShutdown(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_WAIT_MS)));
    await Promise.race([this.drain(), deadline]);
    clearTimeout(timer);
    this.transport?.close();
  }
}
