import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Reader, type Response } from 'maxmind';

/** The database that ships with the project (npm): country per IP range from registry and geofeed data, CC BY 4.0 (NRO), CC0 compilation. */
const BUNDLED = '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb';

/** Why GEOIP_DATABASE cannot be used, in a sentence naming it. */
export class GeoIpDatabaseError extends Error {}

/** Reads the country database: GEOIP_DATABASE's file, or the bundled one (AppConfig.geoIpDatabase, once per config). */
export function openGeoIpDatabase<T extends Response>(path: string | undefined): Reader<T> {
  const file = path ?? createRequire(import.meta.url).resolve(BUNDLED);
  try {
    return new Reader<T>(readFileSync(file));
  } catch (err) {
    throw new GeoIpDatabaseError(`GEOIP_DATABASE ${file} cannot be read: ${(err as Error).message}`, { cause: err });
  }
}
