import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Reader, type Response } from 'mmdb-lib';

/** The ISO 3166-1 alpha-2 code of the country an address is in, or null (unknown, not public, not an address). */
export type CountryLookup = (address: string) => string | null;

/** The npm package that ships the IP-to-country database (CC0), and its file. */
const DATABASE = '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb';

let bundled: CountryLookup | undefined;

/**
 * The bundled IP-to-country database (geo-whois-asn-country: CC0, from the registries' whois
 * and ASN data), read into memory once per process (7.5 MB) and looked up there: no network
 * call, no file read per visit.
 */
export function bundledCountries(): CountryLookup {
  if (bundled) return bundled;
  const file = createRequire(import.meta.url).resolve(DATABASE);
  bundled = countriesFrom(readFileSync(file));
  return bundled;
}

/** A lookup over an MMDB file whose records carry `country_code`. */
export function countriesFrom(mmdb: Buffer): CountryLookup {
  // The reader's types are MaxMind's own records; ip-location-db's carry `country_code` alone.
  const reader = new Reader<Response>(mmdb);
  // The last few thousand addresses' answers, in memory only (never written, gone on restart):
  // busy clients and proxies come back often, and parsing an address costs more than the visit.
  const recent = new Map<string, string | null>();
  return (address) => {
    let country = recent.get(address);
    if (country !== undefined) return country;
    country = lookup(address);
    if (recent.size >= RECENT_MAX) recent.clear();
    recent.set(address, country);
    return country;
  };

  function lookup(address: string): string | null {
    // Only public unicast addresses have a country: the whois data places some private and
    // documentation ranges (192.168/16, 203.0.113/24) in the registry's home country.
    if (isIP(address) === 0) return null;
    const ip = ipaddr.process(address); // ::ffff:1.2.3.4 → 1.2.3.4
    if (ip.range() !== 'unicast') return null;
    try {
      const code = (reader.get(ip.toString()) as { country_code?: unknown } | null)?.country_code;
      return typeof code === 'string' && /^[A-Z]{2}$/.test(code) ? code : null;
    } catch {
      return null;
    }
  }
}

const RECENT_MAX = 4096;
