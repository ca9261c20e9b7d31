// The sign-in and team calls' shapes, defined once: validation, types and the API document.
import { type Static, Type } from '@sinclair/typebox';
import { ROW_ID_MAX } from '../storage/stores/row-ids.js';

const Role = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member'), Type.Literal('viewer')], {
  description: 'owner: everything; admin: also tokens, members and domains; member: also makes, edits and deletes links; viewer: reads.',
});

export const SignInBody = Type.Object(
  {
    email: Type.String({ maxLength: 1000, examples: ['ada@example.com'] }),
    password: Type.String({ maxLength: 1024 }),
  },
  { additionalProperties: false },
);
export type SignInBody = Static<typeof SignInBody>;

const Workspace = Type.Object(
  {
    id: Type.String({ description: "v3's workspaceId" }),
    name: Type.String(),
    role: Role,
  },
  { additionalProperties: false },
);

export const Me = Type.Object(
  {
    user: Type.Object({ email: Type.String(), displayName: Type.Union([Type.String(), Type.Null()]) }, { additionalProperties: false }),
    workspace: Workspace,
    workspaces: Type.Array(Workspace, { description: 'Every workspace of the person, for a switcher.' }),
  },
  { additionalProperties: false, description: 'Who is signed in, in which workspace, with which role.' },
);
export type Me = Static<typeof Me>;

export const SwitchBody = Type.Object({ workspaceId: Type.String({ maxLength: 100 }) }, { additionalProperties: false });
export type SwitchBody = Static<typeof SwitchBody>;

export type Workspace = Static<typeof Workspace>;

export const Workspaces = Type.Array(Workspace, { description: 'Every workspace of the signed-in person, with their role in it, by name.' });

export const AcceptBody = Type.Object(
  {
    token: Type.String({ maxLength: 512 }),
    password: Type.Optional(
      Type.String({
        maxLength: 1024,
        description:
          'A new person: the password to set (at least 10 characters). Someone who signs in already: their password; not needed ' +
          'when signed in as the invitation’s email.',
      }),
    ),
    displayName: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const InvitationToken = Type.Object({ token: Type.String({ maxLength: 512 }) }, { additionalProperties: false });

export const InvitationView = Type.Object(
  {
    email: Type.String(),
    workspace: Type.String(),
    role: Role,
    expiresAt: Type.String({ format: 'date-time' }),
    existingUser: Type.Boolean({
      description: 'Whether the email is someone’s already: then joining takes their own password, or their signed-in session, never a new one.',
    }),
  },
  { additionalProperties: false },
);

export type InvitationView = Static<typeof InvitationView>;

export const InviteBody = Type.Object(
  { email: Type.String({ maxLength: 1000 }), role: Type.String({ maxLength: 20, examples: ['member'] }) },
  { additionalProperties: false },
);

export const MadeInvitation = Type.Object(
  {
    link: Type.String({ description: 'The one-time link to hand over (Brief sends no mail); valid 7 days.' }),
    email: Type.String(),
    workspace: Type.String(),
    role: Role,
    expiresAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type MadeInvitation = Static<typeof MadeInvitation>;

export const Member = Type.Object(
  {
    id: Type.Integer({ description: 'The person’s user id: the {userId} of PATCH and DELETE /auth/members/{userId}.' }),
    email: Type.String(),
    displayName: Type.Union([Type.String(), Type.Null()]),
    role: Role,
  },
  { additionalProperties: false },
);
export type Member = Static<typeof Member>;

export const Members = Type.Array(Member);

// Ids are the database's integer keys: at most 2^31 - 1 (PostgreSQL's integer), so a larger number is a 422, never a query.
export const MemberPath = Type.Object({
  userId: Type.Integer({ minimum: 1, maximum: ROW_ID_MAX, description: 'The member’s user id, as the list gives it.' }),
});

export const RoleBody = Type.Object(
  { role: Type.String({ maxLength: 20, examples: ['admin'], description: 'owner, admin, member or viewer.' }) },
  { additionalProperties: false },
);

export const Success = Type.Object({ success: Type.Literal(true) }, { additionalProperties: false });

export const ChangePasswordBody = Type.Object(
  {
    currentPassword: Type.String({ maxLength: 1024, description: 'The password the person signs in with now.' }),
    newPassword: Type.String({ maxLength: 1024, description: 'At least 10 characters.' }),
  },
  { additionalProperties: false },
);
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

export const ResetPasswordBody = Type.Object(
  {
    token: Type.String({ maxLength: 512, description: 'The secret after `#` in the link `brief user reset` printed.' }),
    newPassword: Type.String({ maxLength: 1024, description: 'At least 10 characters.' }),
  },
  { additionalProperties: false },
);
export type ResetPasswordBody = Static<typeof ResetPasswordBody>;
