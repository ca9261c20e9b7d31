import { normalizeHost } from './blocked-hosts.js';

/** What a BLOCKLIST_FILE holds: its hosts, and the lines that were not hosts (reported, then skipped). */
export interface ParsedBlocklist {
  readonly hosts: string[];
  readonly skipped: number;
}

// Hosts-file lists ("0.0.0.0 phishing.example") name the host second.
const SINK_ADDRESSES = new Set(['0.0.0.0', '127.0.0.1', '::', '::1']);

/**
 * One host per line; `#` starts a comment (whole line or the rest of one); blank lines are
 * ignored. Lines in the hosts-file form `0.0.0.0 host` are taken too, so that public
 * phishing lists in either form can be used as they are published.
 */
export function parseBlocklist(text: string): ParsedBlocklist {
  const hosts: string[] = [];
  let skipped = 0;
  for (const line of text.split(/\r?\n/)) {
    const hash = line.indexOf('#');
    const words = (hash === -1 ? line : line.slice(0, hash)).trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) continue;
    const host = words.length === 2 && SINK_ADDRESSES.has(words[0]!) ? words[1]! : words.length === 1 ? words[0]! : undefined;
    try {
      if (host === undefined) throw new Error('not one host');
      hosts.push(normalizeHost(host));
    } catch {
      skipped++;
    }
  }
  return { hosts, skipped };
}
