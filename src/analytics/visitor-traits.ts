import { isbot } from 'isbot';
import { UAParser } from 'ua-parser-js';
import { storableText } from './storable-text.js';

export type Device = 'desktop' | 'mobile' | 'tablet';

/** What analytics keeps of a User-Agent string: three coarse labels, never the string. */
export interface VisitorTraits {
  browser: string | null;
  os: string | null;
  device: Device;
}

const CACHE_SIZE = 2000;

/**
 * Bot detection (`isbot`, maintained, covers crawlers, monitors, HTTP libraries and headless
 * browsers) and User-Agent parsing (`ua-parser-js` 1.x, MIT), with a small cache: the same few
 * hundred User-Agents make most traffic, and parsing is the costly part of counting a pageview.
 */
export class UserAgents {
  private readonly cache = new Map<string, VisitorTraits | null>();

  /** The visitor's traits, or null for a bot (or a request without a User-Agent). */
  traitsOf(userAgent: string | undefined, screenWidth?: number): VisitorTraits | null {
    if (!userAgent) return null;
    let traits = this.cache.get(userAgent);
    if (traits === undefined) {
      traits = isbot(userAgent) ? null : parse(userAgent);
      if (this.cache.size >= CACHE_SIZE) dropOldest(this.cache, CACHE_SIZE / 10);
      this.cache.set(userAgent, traits);
    }
    // A desktop-looking User-Agent on a narrow screen (the script tells) is a phone or tablet (a copy only then: most beacons share the cached traits).
    if (traits && traits.device === 'desktop' && screenWidth !== undefined) {
      const device = deviceOfWidth(screenWidth);
      if (device !== 'desktop') return { ...traits, device };
    }
    return traits;
  }
}

/**
 * Deletes a Map's `count` oldest entries in one pass: one entry per insert would walk, each time, the
 * holes V8 leaves at a Map's front until it compacts it.
 */
function dropOldest<K, V>(map: Map<K, V>, count: number): void {
  let left = count;
  for (const key of map.keys()) {
    if (left-- <= 0) return;
    map.delete(key);
  }
}

function parse(userAgent: string): VisitorTraits {
  const { browser, os, device } = new UAParser(userAgent).getResult();
  return {
    // Names are read out of the User-Agent the client sent: cut to their columns, control characters dropped.
    browser: label(browser.name),
    os: label(os.name),
    device: device.type === 'mobile' || device.type === 'wearable' ? 'mobile' : device.type === 'tablet' ? 'tablet' : 'desktop',
  };
}

function label(name: string | undefined): string | null {
  return (name && storableText(name, 40)) || null;
}

/** Plausible's breakpoints. */
function deviceOfWidth(width: number): Device {
  if (width < 576) return 'mobile';
  if (width < 992) return 'tablet';
  return 'desktop';
}

/** `Sec-GPC: 1` or `DNT: 1`: the visitor asked not to be tracked, so the request is not counted. */
export function optedOut(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['sec-gpc'] === '1' || headers.dnt === '1';
}
