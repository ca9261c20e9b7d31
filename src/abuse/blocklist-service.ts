import { readFile } from 'node:fs/promises';
import { BriefError } from '../errors.js';
import type { Log } from '../log.js';
import { pollEvery } from '../periodic-poll.js';
import type { BlockedHost, BlocklistStore } from '../storage/stores/blocklist.js';
import { BlockedHosts, normalizeHost } from './blocked-hosts.js';
import { parseBlocklist } from './blocklist-file.js';

/**
 * The destination blocklist: `brief blocklist add|remove|list` write it to the database,
 * and every server holds it in memory (`hosts`), read again whenever its version changes
 * (polled every CHANGE_POLL_MS, so an add reaches every instance within that), plus the
 * hosts of BLOCKLIST_FILE, read at start and on SIGHUP.
 */
export class BlocklistService {
  readonly hosts = new BlockedHosts();
  private version: string | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: BlocklistStore,
    private readonly log: Log,
    private readonly file?: string,
  ) {}

  /** Adds a host (normalized); false when it was on the list already. */
  async add(raw: string): Promise<{ host: string; added: boolean }> {
    const host = normalizeHost(raw);
    const added = await this.store.add(host);
    await this.refresh();
    return { host, added };
  }

  async remove(raw: string): Promise<string> {
    const host = normalizeHost(raw);
    if (!(await this.store.remove(host))) throw BriefError.notFound(`${host} is not on the blocklist`);
    await this.refresh();
    return host;
  }

  list(): Promise<BlockedHost[]> {
    return this.store.all();
  }

  /** The hosts BLOCKLIST_FILE names now (for `brief blocklist list`); none without the setting. */
  async fileHosts(): Promise<string[]> {
    if (!this.file) return [];
    return parseBlocklist(await readFile(this.file, 'utf8')).hosts;
  }

  /** Reads the list (and the file), then polls the list's version every `intervalMs`. */
  async start(intervalMs: number): Promise<void> {
    await this.reloadFile();
    await this.refresh();
    this.timer = pollEvery(intervalMs, () => this.refresh(), this.log, 'blocklist');
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Reads BLOCKLIST_FILE again (start, SIGHUP); a file that cannot be read keeps the hosts read before. */
  async reloadFile(): Promise<void> {
    if (!this.file) return;
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      this.log.warn({ err, file: this.file }, 'BLOCKLIST_FILE could not be read; keeping the hosts read before');
      return;
    }
    const { hosts, skipped } = parseBlocklist(text);
    this.hosts.setListed(hosts);
    this.log.info({ file: this.file, hosts: hosts.length, skipped }, 'blocklist file loaded');
  }

  /** Reads the stored list when its version changed since the last read. */
  async refresh(): Promise<void> {
    const version = await this.store.version();
    if (version === this.version) return;
    const rows = await this.store.all();
    this.hosts.setStored(rows.map((row) => row.host));
    this.version = version;
  }
}
