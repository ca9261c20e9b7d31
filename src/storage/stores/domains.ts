// The domains' contract (decision 0004): short domains, their settings and verification.

export interface DomainRecord {
  readonly hostname: string;
  readonly urlPrefix: string;
  /** null for a public domain; the owner for a private one. */
  readonly accountId: number | null;
}

/** A stored domain's own settings; null: the default. */
export interface DomainSettings {
  /** Length of codes generated on the domain. */
  readonly codeLength: number | null;
  /** Where the bare domain (`/`) redirects. */
  readonly homeRedirectUrl: string | null;
  /** Where unknown keys on the domain redirect, instead of the 404 page. */
  readonly notFoundRedirectUrl: string | null;
}

/** Whether a domain's control is proven (decision 0019). */
export interface DomainVerification {
  /** When it was verified (or added by an administrator); null: an unverified claim. */
  readonly verifiedAt: number | null;
  /** The value its `_brief-verify` TXT record must hold; null for domains an administrator added. */
  readonly verificationToken: string | null;
}

export type StoredDomain = DomainRecord & DomainSettings & DomainVerification;

/** A domain to add: verified (an administrator's) or a claim waiting for its token. */
export type NewDomain = DomainRecord & Partial<DomainSettings> & DomainVerification;

export interface DomainStore {
  all(): Promise<StoredDomain[]>;
  byHostname(hostname: string): Promise<StoredDomain | undefined>;
  /** Public domains and, when given, one account's private ones. */
  usableBy(accountId: number | undefined): Promise<StoredDomain[]>;
  /** Every domain with its owner's name, by hostname. */
  allWithOwners(): Promise<Array<StoredDomain & { owner: string | null }>>;
  /**
   * 'taken' when the hostname is; 'limit' when `maxOfAccount` is given and the owner has that
   * many domains already (counted in the same write as the insert, so racing claims cannot pass it).
   */
  add(domain: NewDomain, maxOfAccount?: number): Promise<'added' | 'taken' | 'limit'>;
  /** Changes a domain's settings; false when there is no such domain. */
  updateSettings(hostname: string, settings: Partial<DomainSettings>): Promise<boolean>;
  /** Marks a domain verified now, unless it is already; false when there is no such domain. */
  markVerified(hostname: string): Promise<boolean>;
  /** false when there was no such domain. */
  remove(hostname: string): Promise<boolean>;
  /**
   * Removes a domain and, in the same write, marks its live links deleted (recording each in the
   * change feed): the keys of the links it deleted, or undefined when there was no such domain.
   */
  removeWithLinks(hostname: string): Promise<string[] | undefined>;
}
