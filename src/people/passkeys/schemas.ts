// The passkey calls' shapes (decision 0030), defined once: validation, types and the API document. The
// credentials are WebAuthn's JSON forms (what @simplewebauthn/browser gives); other fields a browser
// may add are let through, since the signature, not the shape, is what is checked.
import { type Static, Type } from '@sinclair/typebox';
import { ROW_ID_MAX } from '../../storage/stores/row-ids.js';

const B64 = (description: string, maxLength = 4096) => Type.String({ maxLength, pattern: '^[A-Za-z0-9_-]*={0,2}$', description });

const CredentialFields = {
  id: B64('The credential id, base64url.', 1024),
  rawId: B64('The same id, base64url.', 1024),
  type: Type.Literal('public-key'),
  authenticatorAttachment: Type.Optional(Type.String({ maxLength: 50 })),
  clientExtensionResults: Type.Object({}, { additionalProperties: true }),
};

export const RegistrationCredential = Type.Object(
  {
    ...CredentialFields,
    response: Type.Object(
      {
        clientDataJSON: B64('base64url'),
        attestationObject: B64('base64url', 16_384),
        transports: Type.Optional(Type.Array(Type.String({ maxLength: 50 }), { maxItems: 10 })),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true, description: 'What navigator.credentials.create() answered, as JSON (@simplewebauthn/browser).' },
);

export const RegisterBody = Type.Object(
  {
    response: RegistrationCredential,
    name: Type.Optional(Type.String({ maxLength: 100, description: 'What the person calls it ("Passkey 2" when not given).' })),
  },
  { additionalProperties: false },
);
export type RegisterBody = Static<typeof RegisterBody>;

export const AuthenticationCredential = Type.Object(
  {
    ...CredentialFields,
    response: Type.Object(
      {
        clientDataJSON: B64('base64url'),
        authenticatorData: B64('base64url'),
        signature: B64('base64url'),
        userHandle: Type.Optional(B64('base64url', 512)),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true, description: 'What navigator.credentials.get() answered, as JSON (@simplewebauthn/browser).' },
);

export const SignInBody = Type.Object({ response: AuthenticationCredential }, { additionalProperties: false });
export type PasskeySignInBody = Static<typeof SignInBody>;

export const CeremonyOptions = Type.Object(
  { challenge: Type.String() },
  {
    additionalProperties: true,
    description: 'WebAuthn options as JSON, for @simplewebauthn/browser; the challenge is good once, for 5 minutes.',
  },
);

export const Passkey = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Its last sign-in; null: never.' }),
  },
  { additionalProperties: false },
);

export const Passkeys = Type.Array(Passkey);

export const PasskeyParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: ROW_ID_MAX }) }, { additionalProperties: false });
export type Passkey = Static<typeof Passkey>;

export const AcceptWithPasskeyBody = Type.Object(
  {
    token: Type.String({ maxLength: 512 }),
    response: RegistrationCredential,
    displayName: Type.Optional(Type.String({ maxLength: 200 })),
    name: Type.Optional(Type.String({ maxLength: 100, description: 'The passkey’s name ("Passkey 1" when not given).' })),
  },
  { additionalProperties: false },
);
