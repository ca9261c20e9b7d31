// The token routes' data schemas: validation, types and the API document. The web app imports
// their types (type-only); no Node modules here.
import { type Static, Type } from '@sinclair/typebox';
import { ROLES, type Role } from '../accounts/roles.js';
import { SCOPES, type Scope } from '../accounts/scopes.js';
import { ROW_ID_MAX } from '../storage/stores/row-ids.js';

const scopeNames = SCOPES.join(', ');

export const TokensQuery = Type.Object({
  workspaceId: Type.Optional(
    Type.String({
      description: "The caller's workspace id; absent, empty or `undefined` mean the caller's own. Another account's is not found (404).",
    }),
  ),
});

// Ids are the database's integer keys: at most 2^31 - 1 (PostgreSQL's integer), so a larger number is a 422, never a query.
export const TokenPath = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: ROW_ID_MAX, description: 'The token’s id, as the list gives it.' }),
});

const when = (description: string) => Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

const roleOf = (description: string) => Type.Unsafe<Role>({ type: 'string', enum: [...ROLES], description });

const Maker = Type.Union(
  [
    Type.Object(
      {
        id: Type.Integer({ description: 'The person’s user id (as GET /auth/members gives it).' }),
        email: Type.Optional(
          Type.Union([Type.String(), Type.Null()], {
            description: 'Their email; left out for a token without members:read, null once the person is gone.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  {
    description:
      'Who made it, whose role caps it; null: the operator (`brief token create`), or made before makers were recorded (it acts as owner).',
  },
);

export const ApiToken = Type.Object(
  {
    id: Type.Integer(),
    name: Type.Union([Type.String(), Type.Null()], { description: 'What it is for; null for a token made by the CLI without `--label`.' }),
    scopes: Type.Array(Type.Unsafe<Scope>({ type: 'string', enum: [...SCOPES] }), {
      description: `What it may do, of ${scopeNames}; a token made without scopes has them all.`,
    }),
    createdAt: Type.String({ format: 'date-time' }),
    lastUsedAt: when('When it was last presented, to the minute; null: never.'),
    expiresAt: when('When it stops working; null: never.'),
    role: roleOf('The role it acts with now: the one it was made with, capped by its maker’s role in the workspace now.'),
    createdBy: Maker,
  },
  { additionalProperties: false },
);

export const ApiTokenList = Type.Array(ApiToken, {
  description: "The workspace's tokens that are not revoked (expired ones too), oldest first. Never a token's secret.",
});

export const NewTokenBody = Type.Object(
  {
    name: Type.String({ maxLength: 1000, description: 'What the token is for: 1-100 characters.' }),
    scopes: Type.Optional(
      Type.Array(Type.String({ maxLength: 100 }), {
        maxItems: 20,
        description: `Of ${scopeNames}; at least one. Left out: every scope its role may hold (members:read: admin and owner).`,
      }),
    ),
    expiresAt: Type.Optional(Type.String({ maxLength: 100, description: 'An ISO 8601 timestamp with its zone, in the future. Left out: never.' })),
    role: Type.Optional(
      roleOf(
        'The role it acts with: at most the caller’s own (a higher one is 403; a token acting as owner needs an owner). ' +
          'Left out: the caller’s role. It is capped at every use by its maker’s role then.',
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ name: 'deploy script', scopes: ['links:write'], expiresAt: '2027-01-01T00:00:00Z', role: 'member' }],
  },
);

export const NewToken = Type.Object(
  {
    ...ApiToken.properties,
    token: Type.String({ description: 'The token itself: shown this once, never stored (only its hash is).' }),
  },
  { additionalProperties: false },
);

export const PresentedToken = Type.Object(
  {
    token: ApiToken,
    workspace: Type.Object({ id: Type.String({ description: "v3's workspaceId" }), name: Type.String() }, { additionalProperties: false }),
  },
  { additionalProperties: false, description: 'The token this request presents, and its workspace: who the web app is signed in as.' },
);

export const Revoked = Type.Object({ success: Type.Literal(true) }, { additionalProperties: false });

export type ApiToken = Static<typeof ApiToken>;
export type PresentedToken = Static<typeof PresentedToken>;
export type NewTokenBody = Static<typeof NewTokenBody>;
export type NewToken = Static<typeof NewToken>;
