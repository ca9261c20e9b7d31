// Table types for Kysely. Times are epoch milliseconds (bigint in PostgreSQL,
// parsed to number; integer in SQLite) so both dialects compare them the same way.
import type { ColumnType, Generated, Selectable } from 'kysely';

export interface AccountTable {
  id: Generated<number>;
  name: string;
  created_at: number;
}

export interface TokenTable {
  id: Generated<number>;
  account_id: number;
  /** SHA-256 of the token, hex. The token itself is never stored. */
  token_hash: string;
  label: string | null;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  /** Space-separated scopes (accounts/scopes.ts); null: every scope. */
  scopes: string | null;
  /** When the token was last presented, to the minute; null: never. */
  last_used_at: number | null;
  /** The user who made it (no foreign key: kept after they are removed); null: the operator (the CLI), or made before makers were recorded. */
  created_by: number | null;
  /** The role it acts with, capped at every use by its maker's role in the workspace now; owner for tokens made before. */
  role: ColumnType<RoleName, RoleName | undefined, RoleName>;
}

export interface DomainTable {
  id: Generated<number>;
  hostname: string;
  url_prefix: string;
  /** null for a public domain; the owner for a private one. */
  account_id: number | null;
  created_at: number;
  /** Length of generated codes on this domain; null: CODE_LENGTH. */
  code_length: number | null;
  /** Where the bare domain (`/`) redirects; null: nowhere. */
  home_redirect_url: string | null;
  /** Where unknown keys on the domain redirect instead of the 404 page; null: the page. */
  not_found_redirect_url: string | null;
  /** When its control was proven (or an administrator added it); null: a claim that serves nothing yet. */
  verified_at: number | null;
  /** The value its `_brief-verify` TXT record must hold; null for domains an administrator added. */
  verification_token: string | null;
}

export interface LinkTable {
  /** Also the link's `tally`. */
  id: Generated<number>;
  /** Generated code, unique across all links ever made (deleted ones included). */
  code: string;
  /** hostname of the short domain. */
  domain: string;
  /** The path segment that redirects: the slug when there is one, else the code. */
  key: string;
  slug: string | null;
  url: string;
  /** SHA-256 of url: the dedupe index covers it instead of the (up to 8 KB) url. */
  url_hash: Buffer;
  title: string | null;
  account_id: number;
  status: 'public' | 'blocked';
  created_at: number;
  deleted_at: number | null;
  /** v3's free-text note. */
  comment: string | null;
  /** scrypt hash of the link's password (see links/passwords.ts); null: no password. */
  password_hash: string | null;
  /** After this the link answers 410; null: never. */
  expires_at: number | null;
  updated_at: number | null;
  /** In the dedupe index (v2, and v3 with reuseExisting); 0/1 on SQLite. */
  reusable: Generated<boolean | number>;
  /** A visitor's query string is added to the destination's on redirect (decision 0015); 0/1 on SQLite. */
  forward_query: Generated<boolean | number>;
  /** The link's redirect rules as JSON (an array of StoredRule), null when it has none. */
  rules: string | null;
  /** Past this many counted visits the link answers 410; null: no limit. */
  max_visits: number | null;
  /** The visits counted against max_visits (bots excluded), added to by each instance's flush. */
  limited_visits: Generated<number>;
  /** The card preview fetchers get (decision 0041): its title, null when the link has no card; the other two need it. */
  preview_title: string | null;
  preview_description: string | null;
  /** An https URL; Brief never fetches it. */
  preview_image: string | null;
  /** Why an administrator blocked the link (`brief link block --reason`); null when not given or not blocked. */
  block_reason: string | null;
  /** Its code is made from its id (decision 0026) and found by decoding; 0/1 on SQLite. Links from before keep stored codes. */
  coded: Generated<boolean | number>;
}

/** A workspace's tag (decision 0040): made when a link first carries its name, kept (with no links) until deleted. */
export interface TagTable {
  id: Generated<number>;
  account_id: number;
  /** As first written in the workspace. */
  name: string;
  /** The name lower-cased: unique per workspace. */
  name_key: string;
  /** `#rrggbb`, lower-case; null: none. */
  color: string | null;
  created_at: number;
}

/** Which live link carries which tag; a deleted link's rows go with it. */
export interface LinkTagTable {
  tag_id: number;
  link_id: number;
}

/** The secret of the codes' permutation (decision 0026): one row, made by the migration. */
export interface LinkCodeSecretTable {
  id: number;
  secret: Buffer;
}

/** Clicks per link, added to by every instance's click counter; no row means no clicks yet. */
export interface LinkClicksTable {
  link_id: number;
  clicks: number;
}

/** Per instance (a random id per process): the number of the last click batch it applied. */
export interface ClickWriterTable {
  writer: string;
  seq: number;
  updated_at: number;
}

/** One counted visit (analytics); never an address. Null: unknown, not recorded, or refused (DNT / Sec-GPC). */
export interface ClickEventTable {
  id: Generated<number>;
  time: number;
  link_id: number;
  /** The link's account when the event was written: a workspace's figures need no join. */
  account_id: number;
  /** A crawler's or link-preview fetcher's name; null for a person. */
  bot: string | null;
  browser: string | null;
  browser_version: string | null;
  os: string | null;
  device_type: string | null;
  device_vendor: string | null;
  language: string | null;
  referrer_host: string | null;
  country: string | null;
  city: string | null;
  /** What a visit of a link with rules took (`rules.0`, `rules.0.split.1`, `url`); null otherwise (migration 0023). */
  rule: string | null;
  /** Visits identical in every other column within the same second: one row. */
  clicks: ColumnType<number, number | undefined, number>;
}

/** Click counts per dimension value and period (storage/sql/rollups.ts). */
export interface ClickRollupTable {
  account_id: number;
  /** 0: the whole workspace's; a link's id: that link's day rows, made when its events expired. */
  link_id: number;
  period: 'quarter' | 'day';
  dimension: string;
  /** Epoch milliseconds: the period's start (UTC). */
  start: number;
  value: string;
  clicks: number;
}

/** How far the events are rolled up where that happens after they are written (rollUpLinkEvents). */
export interface ClickRollupMarkTable {
  /** The dimension rolled up afterwards: `link_id`. */
  name: string;
  /** Every click_events row with an id up to this one is counted in the rollups. */
  event_id: number;
}

/** Append-only feed of link changes that running instances poll to drop cache entries. */
export interface LinkChangeTable {
  id: Generated<number>;
  domain: string;
  key: string;
  created_at: number;
}

/** Destination hosts no link may point to (`brief blocklist`); a host covers its subdomains. */
export interface BlockedHostTable {
  id: Generated<number>;
  /** Lower-case, punycode: as a normalized URL's hostname. */
  host: string;
  created_at: number;
}

/** What a running server records for the CLI (decision 0033), by key; `value` is text (JSON where it has parts). */
export interface ServerSettingTable {
  key: string;
  value: string;
  updated_at: number;
}

/** `brief import`: the link each imported row became, by its source and its key there (decision 0025). */
export interface LinkImportTable {
  source: string;
  origin_key: string;
  link_id: number;
  imported_at: number;
}

/** The roles a person has in a workspace, weakest first (accounts/roles.ts says what each may do). */
export type RoleName = 'viewer' | 'member' | 'admin' | 'owner';

/** A person who signs in (decision 0028). */
export interface UserTable {
  id: Generated<number>;
  /** As given. */
  email: string;
  /** Lower-cased: unique, so an email is one user whatever its case. */
  email_key: string;
  display_name: string | null;
  /** scrypt (passwords/scrypt.ts, through people/user-passwords.ts); null until the person sets one. */
  password_hash: string | null;
  created_at: number;
}

/** A user's role in a workspace (an account). */
export interface MembershipTable {
  user_id: number;
  account_id: number;
  role: RoleName;
  created_at: number;
}

/** A signed-in browser: the SHA-256 of its cookie's secret, never the secret. */
export interface SessionTable {
  id_hash: string;
  user_id: number;
  /** The workspace the session acts in (the switcher changes it). */
  account_id: number;
  created_at: number;
  last_seen_at: number;
}

/** A one-time link that makes (or adds) a person to a workspace with a role. */
export interface InvitationTable {
  id: Generated<number>;
  /** SHA-256 of the invitation's secret. */
  token_hash: string;
  account_id: number;
  email: string;
  role: RoleName;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** The user who issued it; null: the operator (`brief user create`), or made before makers were recorded. */
  created_by: number | null;
  /** When it was withdrawn (its maker removed, or lowered below its role); a revoked invitation cannot be accepted. */
  revoked_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** Wrong passwords given with it (migration 0018); at 5 it is used up. */
  wrong_passwords: Generated<number>;
}

/** A one-time link that sets a person's password (`brief user reset`): the SHA-256 of its secret, never the secret. */
export interface PasswordResetTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface Tables {
  accounts: AccountTable;
  tokens: TokenTable;
  domains: DomainTable;
  links: LinkTable;
  link_clicks: LinkClicksTable;
  click_writers: ClickWriterTable;
  link_changes: LinkChangeTable;
  click_events: ClickEventTable;
  click_rollups: ClickRollupTable;
  click_rollup_marks: ClickRollupMarkTable;
  blocked_hosts: BlockedHostTable;
  link_imports: LinkImportTable;
  users: UserTable;
  memberships: MembershipTable;
  sessions: SessionTable;
  invitations: InvitationTable;
  password_resets: PasswordResetTable;
  passkeys: PasskeyTable;
  passkey_challenges: PasskeyChallengeTable;
  link_code_secret: LinkCodeSecretTable;
  server_settings: ServerSettingTable;
  tags: TagTable;
  link_tags: LinkTagTable;
  domain_well_known: DomainWellKnownTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
}

/** A file a domain serves under `/.well-known/` (decision 0042): its body as uploaded. */
export interface DomainWellKnownTable {
  /** host[:port], lower-case: a stored domain's `hostname`, or a configured one's. */
  domain: string;
  /** `apple-app-site-association` or `assetlinks.json`. */
  name: string;
  body: string;
  updated_at: number;
}

/** A workspace's webhook receiver (issue 41, migration 0027). */
export interface WebhookEndpointTable {
  id: Generated<number>;
  account_id: number;
  url: string;
  /** Space-separated event types. */
  events: string;
  include_bots: boolean | number;
  /** `whsec_…`: stored as it is, since deliveries are signed with it; shown once. */
  secret: string;
  /** The secret before the last rotation, which signs too until previous_secret_until. */
  previous_secret: string | null;
  previous_secret_until: number | null;
  /** Since when every attempt failed; null: the last one succeeded, or none was made. */
  failing_since: number | null;
  disabled_at: number | null;
  disabled_reason: string | null;
  created_at: number;
}

/** One event for one endpoint: the outbox row the delivery worker claims (migration 0028). */
export interface WebhookDeliveryTable {
  id: Generated<number>;
  endpoint_id: number;
  /** `msg_…`: the webhook-id of every attempt. */
  event_id: string;
  type: string;
  /** The event's snapshot, JSON. */
  data: string;
  created_at: number;
  status: 'pending' | 'delivered' | 'failed';
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: number;
  /** A worker's claim, until then; null or past: free to claim. */
  claimed_until: number | null;
  last_attempt_at: number | null;
  response_status: number | null;
  last_error: string | null;
  delivered_at: number | null;
}

/** A person's WebAuthn credential (decision 0030). */
export interface PasskeyTable {
  id: Generated<number>;
  user_id: number;
  /** The credential's id, base64url: unique. */
  credential_id: string;
  /** The user handle its authenticator keeps (random, base64url), the same for each of a person's passkeys. */
  user_handle: string;
  /** Its COSE public key, base64url. */
  public_key: string;
  /** The authenticator's signature counter when last seen (0 for those that keep none). */
  counter: number;
  /** Space-separated (usb, nfc, ble, internal, hybrid…); null when the browser said none. */
  transports: string | null;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** A passkey ceremony under way: used once, until expires_at. */
export interface PasskeyChallengeTable {
  /** base64url, 32 random bytes. */
  challenge: string;
  purpose: 'register' | 'sign-in' | 'invitation';
  /** Who registers; null for a sign-in and an invitation. */
  user_id: number | null;
  /** An invitation accepted with a passkey: SHA-256 of its secret. */
  invitation_hash: string | null;
  /** The user handle the options offered (registration and invitation). */
  user_handle: string | null;
  expires_at: number;
}

export type LinkRow = Selectable<LinkTable>;
export type TagRow = Selectable<TagTable>;
export type DomainRow = Selectable<DomainTable>;
export type TokenRow = Selectable<TokenTable>;
export type AccountRow = Selectable<AccountTable>;
export type UserRow = Selectable<UserTable>;
export type SessionRow = Selectable<SessionTable>;
export type InvitationRow = Selectable<InvitationTable>;
export type PasskeyRow = Selectable<PasskeyTable>;
