import { Injectable } from '@nestjs/common';
import type { Reader, Response } from 'maxmind';
import { AppConfig } from '../config/app-config.js';

/** What a breakdown by country calls a visitor whose address is in no range of the database. */
export const UNKNOWN_COUNTRY = '(unknown)';
const ISO_ALPHA2 = /^[A-Z]{2}$/;

/** The record shapes read: ip-location-db's `country_code`, MaxMind's `country.iso_code` (else `registered_country`). */
interface CountryRecord {
  country_code?: string;
  country?: { iso_code?: string };
  registered_country?: { iso_code?: string };
}

/**
 * Country (ISO 3166-1 alpha-2) of an IP address, looked up in memory when an event is collected: the
 * address itself is never stored (see AnalyticsCollector). The whole file is read once at start (8 MB
 * bundled); a GEOIP_DATABASE that cannot be read stops the start, naming it.
 */
@Injectable()
export class GeoIp {
  private readonly reader: Reader<Response>;

  constructor(config: AppConfig) {
    this.reader = config.geoIpDatabase;
  }

  /** The country, or null for an address in no range (private, reserved) or not an address at all. */
  countryOf(ip: string): string | null {
    let record: CountryRecord | null;
    try {
      record = this.reader.get(ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip) as CountryRecord | null;
    } catch {
      return null; // not an IP address
    }
    return countryIn(record);
  }
}

/** The ISO code a record holds, checked (a database's odd value is no country). */
export function countryIn(record: CountryRecord | null): string | null {
  const code = record?.country_code ?? record?.country?.iso_code ?? record?.registered_country?.iso_code;
  return typeof code === 'string' && ISO_ALPHA2.test(code) ? code : null;
}
