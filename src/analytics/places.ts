import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';
import { Reader, type Response } from 'mmdb-lib';
import type { PlaceLookup } from '../visitors/visitor.js';

/** What an address tells of a place (declared with the visitor, which asks it). */
export type { PlaceLookup };

/** The npm package that ships the IP-to-country database (CC0), and its file. */
const DATABASE = '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb';

let bundled: PlaceLookup | undefined;

/**
 * The bundled IP-to-country database (geo-whois-asn-country: CC0, from the registries' whois
 * and ASN data), read into memory once per process (7.5 MB) and looked up there: no network
 * call, no file read per visit. Answers ISO 3166-1 alpha-2 codes.
 */
export function bundledCountries(): PlaceLookup {
  if (bundled) return bundled;
  const file = createRequire(import.meta.url).resolve(DATABASE);
  bundled = countriesFrom(readFileSync(file));
  return bundled;
}

/** A country lookup over an MMDB file whose records carry `country_code` (ip-location-db) or `country.iso_code` (MaxMind). */
function countriesFrom(mmdb: Buffer): PlaceLookup {
  return lookupIn(mmdb, (record) => {
    const code = record.country_code ?? (record.country as Record<string, unknown> | undefined)?.iso_code;
    return typeof code === 'string' && /^[A-Z]{2}$/.test(code) ? code : null;
  });
}

/**
 * GEOIP_CITY_DB: a city lookup over the operator's own MMDB file (read once, at start), in
 * either of the common shapes: `city` as a name (ip-location-db's city files) or
 * `city.names.en` (MaxMind's GeoLite2/GeoIP2 City).
 */
export function citiesIn(file: string): PlaceLookup {
  let mmdb: Buffer;
  try {
    mmdb = readFileSync(file);
    new Reader<Response>(mmdb);
  } catch (error) {
    throw new Error(`GEOIP_CITY_DB: ${file} is not a readable MMDB file (${(error as Error).message})`);
  }
  return lookupIn(mmdb, (record) => {
    const city = record.city;
    const name = typeof city === 'string' ? city : ((city as { names?: Record<string, unknown> } | undefined)?.names?.en ?? null);
    return typeof name === 'string' && name.trim() !== '' ? name.trim().slice(0, 64) : null;
  });
}

/** Looks addresses up in an MMDB file held in memory, answering what `pick` reads of the record. */
function lookupIn(mmdb: Buffer, pick: (record: Record<string, unknown>) => string | null): PlaceLookup {
  // The reader's types are MaxMind's own records; other databases' records differ, hence the plain object.
  // Its cache holds decoded records by their place in the file: a country database has a few hundred.
  const reader = new Reader<Response>(mmdb, { cache: new LRUCache<number, Response>({ max: RECORDS_MAX }) });
  // No answer is kept by address here: the enricher remembers them for one batch of visits only.
  return (address: string): string | null => {
    // Only public unicast addresses have a place: the whois data places some private and
    // documentation ranges (192.168/16, 203.0.113/24) in the registry's home country.
    const family = isIP(address);
    if (family === 0) return null;
    let unicast: string | undefined;
    if (family === 4) {
      unicast = isUnicastV4(address) ? address : undefined;
    } else {
      const ip = ipaddr.process(address); // ::ffff:1.2.3.4 → 1.2.3.4
      unicast = ip.range() === 'unicast' ? ip.toString() : undefined;
    }
    if (unicast === undefined) return null;
    try {
      const record = reader.get(unicast) as Record<string, unknown> | null;
      return record ? pick(record) : null;
    } catch {
      return null;
    }
  };
}

const RECORDS_MAX = 4096;

/**
 * IPv4's ranges that are not unicast, as ipaddr.js's `range()` names them (unspecified, broadcast, multicast,
 * link-local, loopback, carrier-grade NAT, private, reserved and documentation, AS112, AMT), as network and
 * prefix. Checked here by arithmetic: a country lookup is on the redirect path when a rule asks for one, and
 * ipaddr.js's parse and range walk cost more than the lookup itself. test/analytics/places.test.ts holds this
 * list to ipaddr.js's.
 */
// biome-ignore format: one range a line reads best
const V4_NOT_UNICAST: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], ['255.255.255.255', 32], ['224.0.0.0', 4], ['169.254.0.0', 16], ['127.0.0.0', 8], ['100.64.0.0', 10],
  ['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['240.0.0.0', 4],
  ['192.175.48.0', 24], ['192.31.196.0', 24], ['192.52.193.0', 24],
];

/** An IPv4 address (dotted, as isIP accepts it) as an unsigned 32-bit number. */
function v4Number(address: string): number {
  let value = 0;
  for (const octet of address.split('.')) value = value * 256 + Number(octet);
  return value;
}

const V4_MASKS = V4_NOT_UNICAST.map(([network, prefix]) => {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return [v4Number(network), mask] as const;
});

/** Whether an IPv4 address is in none of V4_NOT_UNICAST. */
export function isUnicastV4(address: string): boolean {
  const value = v4Number(address);
  for (const [network, mask] of V4_MASKS) if ((value & mask) >>> 0 === network) return false;
  return true;
}
