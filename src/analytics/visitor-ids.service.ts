import { Injectable, Logger } from '@nestjs/common';
import { createHmac, createSecretKey, hash, type KeyObject, randomBytes } from 'node:crypto';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { VisitorSaltsRepository } from './visitor-salts.repository.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** Limit keys remembered within one minute (about 150 bytes each): a visitor's repeat views cost a Map lookup, not a hash. */
const RECENT_LIMIT_KEYS = 10_000;

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
  /** The same salts once read (as latin1 text, for hashing): no promise on the hot path. */
  private readonly loaded = new Map<string, string>();
  /** And as HMAC keys, made once. */
  private readonly loadedKeys = new Map<string, KeyObject>();
  /** This minute's limit keys by scope and network (emptied as the minute ends: no address is held longer). */
  private readonly recentLimitKeys = new Map<string, string>();
  private recentMinute = -1;

  constructor(
    private readonly repository: VisitorSaltsRepository,
    jobs: PeriodicJobs,
  ) {
    jobs.add({ name: 'visitor-salts-purge', schedule: { cron: '0 0 * * *' }, runsOn: 'workers', run: () => this.purge() });
  }

  /**
   * The visitor's id for today within `scope` (an app id: the same person on two apps gets two ids),
   * as 16 hex characters.
   */
  async idOf(scope: string, ip: string, userAgent: string, at = new Date()): Promise<string> {
    return this.idNow(scope, ip, userAgent, at) ?? idWith(await this.saltOf(utcDay(at)), scope, ip, userAgent);
  }

  /** `idOf` without a promise, once the day's salt is loaded (undefined before: ask `idOf`). */
  idNow(scope: string, ip: string, userAgent: string, at = new Date()): string | undefined {
    const salt = this.loadedKeys.get(utcDay(at));
    return salt && idWith(salt, scope, ip, userAgent);
  }

  /**
   * The key a visitor's network is rate-limited under today within `scope`: SHA-256 of the day's salt,
   * the scope and the network (so the limiter's memory holds no address, and nothing links it to
   * another day), cut to 72 bits. Not an id that is stored: a plain salted hash suffices, a quarter of
   * an HMAC's cost. Answered without a promise once the day's salt is loaded; a network seen this minute
   * (a visitor's next view) gets its key from memory, kept until the minute ends.
   */
  limitKeyOf(scope: string, network: string, at = new Date()): string | Promise<string> {
    const day = utcDay(at);
    const salt = this.loaded.get(day);
    if (salt === undefined) return this.saltOf(day).then((read) => limitKeyWith(read.toString('latin1'), scope, network));
    const minute = Math.floor(at.getTime() / MINUTE_MS); // a day's end is a minute's: a remembered key is always of this day's salt
    if (minute !== this.recentMinute) {
      this.recentLimitKeys.clear();
      this.recentMinute = minute;
    }
    const recent = `${scope}\u0000${network}`;
    let key = this.recentLimitKeys.get(recent);
    if (key === undefined) {
      key = limitKeyWith(salt, scope, network);
      if (this.recentLimitKeys.size < RECENT_LIMIT_KEYS) this.recentLimitKeys.set(recent, key);
    }
    return key;
  }

  /** Salts whose day began more than 48 h ago go (the job `visitor-salts-purge`, at 00:00 UTC in worker processes). */
  async purge(now = new Date()): Promise<number> {
    const firstKept = utcDay(new Date(now.getTime() - DAY_MS));
    for (const day of this.salts.keys()) if (day < firstKept) this.salts.delete(day);
    for (const day of this.loaded.keys()) if (day < firstKept) this.loaded.delete(day);
    for (const day of this.loadedKeys.keys()) if (day < firstKept) this.loadedKeys.delete(day);
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
          if (this.salts.get(day) !== salt) return;
          this.loaded.set(day, read.toString('latin1'));
          this.loadedKeys.set(day, createSecretKey(read));
        },
        () => this.salts.delete(day), // a failed read is retried by the next caller
      );
      this.salts.set(day, salt);
      // Only today's and yesterday's are ever needed.
      const oldest = utcDay(new Date(Date.parse(day) - DAY_MS));
      for (const known of this.salts.keys()) if (known < oldest) this.salts.delete(known);
      for (const known of this.loaded.keys()) if (known < oldest) this.loaded.delete(known);
      for (const known of this.loadedKeys.keys()) if (known < oldest) this.loadedKeys.delete(known);
    }
    return salt;
  }
}

/** SHA-256 of the salt, scope and network: 72 bits as 12 base64url characters (V8 copies a slice that short, where a longer one would keep the whole digest alive in the limiter). */
function limitKeyWith(salt: string, scope: string, network: string): string {
  return hash('sha256', `${salt}\u0000${scope}\u0000${network}`, 'base64url').slice(0, 12);
}

/** The visitor id: HMAC-SHA256(salt, scope ‖ IP ‖ User-Agent), NUL-separated (no two different triples hash the same input), its first 64 bits in hex. */
function idWith(salt: Buffer | KeyObject, scope: string, ip: string, userAgent: string): string {
  return createHmac('sha256', salt).update(`${scope}\u0000${ip}\u0000${userAgent}`).digest().toString('hex', 0, 8);
}
