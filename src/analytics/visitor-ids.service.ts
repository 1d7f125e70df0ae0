import { Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { DaySalt } from './day-salt.js';
import { VisitorSaltsRepository } from './visitor-salts.repository.js';

const DAY_MS = 86_400_000;

/** The last day `utcDay` named, kept: nearly every call asks for today, and `toISOString` is a tenth of a beacon's own work. */
let lastDay = { start: 0, end: 0, text: '' };

/** YYYY-MM-DD of a UTC day. */
export function utcDay(at: Date): string {
  const ms = at.getTime();
  if (ms >= lastDay.start && ms < lastDay.end) return lastDay.text;
  const text = at.toISOString().slice(0, 10); // (an invalid date throws here)
  const start = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
  lastDay = { start, end: start + DAY_MS, text };
  return text;
}

/**
 * Pseudonymous visitor ids without cookies (Plausible's model): HMAC-SHA256(daily salt, scope ‖ IP ‖
 * User-Agent) cut to 64 bits. The salt is random, made once per UTC day and shared through the
 * database by every instance, and deleted 48 h after its day began: the same person gets another id
 * tomorrow, and nobody — with the database or without — can link the two or recompute an old id.
 * The IP and User-Agent are never stored; only the 64-bit id is.
 */
@Injectable()
export class VisitorIds {
  private readonly logger = new Logger('VisitorIds');
  private readonly salts = new Map<string, Promise<Buffer>>();
  /** The same salts once read, ready to hash with: no promise on the hot path. */
  private readonly loaded = new Map<string, DaySalt>();
  /** The last id `idNow` made, with what it was made of. */
  private last: { salt: DaySalt; scope: string; ip: string; userAgent: string; id: string } | undefined;

  constructor(
    private readonly repository: VisitorSaltsRepository,
    jobs: PeriodicJobs,
  ) {
    jobs.add({ name: 'visitor-salts-purge', schedule: { cron: '0 0 * * *' }, runsOn: 'workers', run: () => this.purge() });
  }

  /**
   * The visitor's id for today within `scope` (an app id: the same person on two apps gets two ids):
   * 64 bits as a signed decimal, as `analytics_events.visitor_id` holds it.
   */
  async idOf(scope: string, ip: string, userAgent: string, at = new Date()): Promise<string> {
    return this.idNow(scope, ip, userAgent, at) ?? new DaySalt(await this.saltOf(utcDay(at))).visitorId(scope, ip, userAgent);
  }

  /** `idOf` without a promise, once the day's salt is loaded (undefined before: ask `idOf`). */
  idNow(scope: string, ip: string, userAgent: string, at = new Date()): string | undefined {
    const salt = this.loaded.get(utcDay(at));
    if (!salt) return undefined;
    // A page under a split test asks twice (its variant, then its pageview): the second costs no HMAC.
    const last = this.last;
    if (last?.salt === salt && last.ip === ip && last.userAgent === userAgent && last.scope === scope) return last.id;
    const id = salt.visitorId(scope, ip, userAgent);
    this.last = { salt, scope, ip, userAgent, id };
    return id;
  }

  /**
   * The key a visitor's network is rate-limited under today within `scope` (see DaySalt.limitKey),
   * without a promise once the day's salt is loaded.
   */
  limitKeyOf(scope: string, network: string, at = new Date()): number | Promise<number> {
    const day = utcDay(at);
    const salt = this.loaded.get(day);
    return salt ? salt.limitKey(scope, network) : this.saltOf(day).then((read) => new DaySalt(read).limitKey(scope, network));
  }

  /** Salts whose day began more than 48 h ago go (the job `visitor-salts-purge`, at 00:00 UTC in worker processes). */
  async purge(now = new Date()): Promise<number> {
    const firstKept = utcDay(new Date(now.getTime() - DAY_MS));
    this.forgetBefore(firstKept);
    const deleted = await this.repository.deleteBefore(firstKept);
    if (deleted > 0) this.logger.log(`Deleted ${deleted} visitor salt(s) older than 48 h`);
    return deleted;
  }

  private saltOf(day: string): Promise<Buffer> {
    let salt = this.salts.get(day);
    if (!salt) {
      salt = this.repository.getOrCreate(day, randomBytes(32));
      salt.then(
        (read) => {
          if (this.salts.get(day) === salt) this.loaded.set(day, new DaySalt(read));
        },
        () => this.salts.delete(day), // a failed read is retried by the next caller
      );
      this.salts.set(day, salt);
      // Only today's and yesterday's are ever needed.
      this.forgetBefore(utcDay(new Date(Date.parse(day) - DAY_MS)));
    }
    return salt;
  }

  /** Drops the salts of days before `firstKept` from memory. */
  private forgetBefore(firstKept: string): void {
    for (const day of this.salts.keys()) if (day < firstKept) this.salts.delete(day);
    for (const day of this.loaded.keys()) if (day < firstKept) this.loaded.delete(day);
  }
}
