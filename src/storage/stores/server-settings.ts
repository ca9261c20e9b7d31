// The contract of what a server records for the CLI to read (decision 0033): text values by key.

export interface ServerSettingsStore {
  /** The value recorded under `key`, or undefined when none is. */
  get(key: string): Promise<string | undefined>;
  /** Records `value` under `key`, replacing what was there; answers the value it replaced (undefined: none). */
  put(key: string, value: string): Promise<string | undefined>;
}
