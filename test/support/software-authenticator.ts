// A software WebAuthn authenticator for HTTP tests: a P-256 key from node:crypto, `none` attestation, and
// clientDataJSON and authenticatorData built by hand, as a browser and an authenticator would make them.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/** Just enough CBOR (RFC 8949) for an attestation object and a COSE key: maps, integers, byte and text strings. */
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

function head(major: number, value: number): Buffer {
  if (value < 24) return Buffer.from([(major << 5) | value]);
  if (value < 0x100) return Buffer.from([(major << 5) | 24, value]);
  if (value < 0x10000) return Buffer.from([(major << 5) | 25, value >> 8, value & 0xff]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(value, 1);
  return out;
}

export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const parts = [head(5, value.size)];
  for (const [key, item] of value) parts.push(cbor(key), cbor(item));
  return Buffer.concat(parts);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64 = (data: Buffer | Uint8Array) => Buffer.from(data).toString('base64url');

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface RegistrationOptions {
  challenge: string;
  rp: { id: string; name: string };
  user: { id: string; name: string; displayName: string };
  excludeCredentials?: Array<{ id: string }>;
  authenticatorSelection?: { residentKey?: string; userVerification?: string };
}

export interface AuthenticationOptions {
  challenge: string;
  rpId: string;
  userVerification?: string;
}

/** One credential on a software authenticator: registers once, then signs assertions. */
export class SoftwareCredential {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** The signature counter; `step` 0 makes an authenticator that keeps none (always 0). */
  counter: number;
  /** The user handle the authenticator kept at registration (base64url), sent back with each assertion. */
  userHandle: string | undefined;

  constructor(
    readonly origin: string,
    private readonly step = 1,
    start = 0,
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
    this.counter = start;
  }

  get id(): string {
    return b64(this.credentialId);
  }

  private coseKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return cbor(
      new Map<Cbor, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  private authenticatorData(rpId: string, flags: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  private clientData(type: string, challenge: string, origin = this.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create()'s answer, as @simplewebauthn/browser sends it. */
  register(options: RegistrationOptions, overrides: { origin?: string; rpId?: string } = {}) {
    this.userHandle = options.user.id;
    const length = Buffer.alloc(2);
    length.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), length, this.credentialId, this.coseKey()]);
    const authData = this.authenticatorData(overrides.rpId ?? options.rp.id, FLAG_UP | FLAG_UV | FLAG_AT, attested);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(this.clientData('webauthn.create', options.challenge, overrides.origin)),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get()'s answer: the counter moves by `step`, the user is verified. */
  assert(options: AuthenticationOptions, overrides: { origin?: string; userHandle?: string; signWith?: SoftwareCredential } = {}) {
    this.counter += this.step;
    const authData = this.authenticatorData(options.rpId, FLAG_UP | FLAG_UV);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, overrides.origin);
    const signer = overrides.signWith ?? this;
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), signer.privateKey);
    const userHandle = overrides.userHandle ?? this.userHandle;
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(signature),
        ...(userHandle !== undefined && { userHandle }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
