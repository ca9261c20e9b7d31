// Standard Webhooks (standardwebhooks.com): what a delivery carries so its receiver can tell it came from
// Brief, unchanged, and not replayed. The signature is HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed by the
// secret's bytes (the base64 after `whsec_`), sent as `v1,<base64>`; while a secret is being rotated both the
// new and the old one sign, space-separated, so a receiver holding either accepts the delivery.
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';
/** 32 random bytes: the spec takes 24 to 64. */
const SECRET_BYTES = 32;

/** A new signing secret, `whsec_` and 32 random bytes in base64. */
export function newSecret(): string {
  return `${PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** One `v1,<base64>` signature of a delivery with one secret. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three headers of a delivery: `webhook-timestamp` in whole seconds, one signature per secret (the newest first). */
export function webhookHeaders(secrets: readonly string[], id: string, sentAt: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(sentAt.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signature(secret, id, timestamp, body)).join(' '),
  };
}
