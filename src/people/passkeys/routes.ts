// Passkeys (decision 0030), under /auth/passkeys: a signed-in person registers, lists and removes their
// own; anyone signs in with one alone; an invitation may be accepted with one instead of a password
// (/auth/invitation/passkey). Thin: each calls PasskeyService.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { Authenticate } from '../../http/auth.js';
import { errorResponse } from '../../http/error-schemas.js';
import { InvitationToken, Me, Success } from '../schemas.js';
import type { SessionService } from '../session-service.js';
import { invitationErrors, openRoute, signedInCaller, signedInRoute, signInAnswer } from '../signed-in-routes.js';
import { PASSKEY_ERRORS } from './passkey-errors.js';
import type { AuthenticationResponseJSON, PasskeyService, PasskeyView, RegistrationResponseJSON } from './passkey-service.js';
import { AcceptWithPasskeyBody, CeremonyOptions, PasskeyParams, Passkey as PasskeySchema, Passkeys, RegisterBody, SignInBody } from './schemas.js';

const iso = (ms: number) => new Date(ms).toISOString();
const toPasskey = (passkey: PasskeyView) => ({
  id: passkey.id,
  name: passkey.name,
  createdAt: iso(passkey.createdAt),
  lastUsedAt: passkey.lastUsedAt === null ? null : iso(passkey.lastUsedAt),
});

export interface PasskeyRouteDeps {
  readonly config: Pick<Config, 'defaultDomain' | 'sessionMaxMs'>;
  readonly passkeys: PasskeyService;
  readonly sessions: Pick<SessionService, 'whoIs' | 'start'>;
  readonly authenticate: Authenticate;
  /** Refuses a cookie-authenticated request another site made (http/session-cookie.ts). */
  readonly refuseCrossSite: (request: FastifyRequest) => void;
}

const signedInOnly = 'A signed-in person (the session cookie); a bearer token is refused: passkeys belong to people.';

export function passkeyRoutes({ config, passkeys, sessions, authenticate, refuseCrossSite }: PasskeyRouteDeps) {
  const signedIn = signedInCaller(authenticate);
  const answerSignedIn = signInAnswer(config, sessions);
  /** The signed-in person's id (a session, not a token). */
  const personOf = async (request: FastifyRequest): Promise<number> => (await signedIn(request)).userId;

  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/auth/passkeys',
      signedInRoute({
        limit: 'read',
        summary: 'Your passkeys',
        description: signedInOnly,
        response: { 200: Passkeys },
      }),
      async (request) => (await passkeys.list(await personOf(request))).map(toPasskey),
    );

    app.post(
      '/auth/passkeys/registration/options',
      signedInRoute({
        limit: 'read',
        summary: 'Start adding a passkey',
        description: `${signedInOnly} The options for navigator.credentials.create(): a discoverable credential, the user verified.`,
        response: { 200: CeremonyOptions, 403: errorResponse(403) },
      }),
      async (request) => passkeys.registrationOptions(await personOf(request)),
    );

    app.post(
      '/auth/passkeys/registration',
      signedInRoute({
        limit: 'read',
        summary: 'Add a passkey',
        description:
          `${signedInOnly} The authenticator's answer to the options' challenge (good once, for 5 minutes), and an optional name. ` +
          'A challenge used, expired or not yours, or an answer that does not verify, is 422.',
        body: RegisterBody,
        response: {
          200: PasskeySchema,
          403: errorResponse(403),
          422: errorResponse(422, {
            examples: {
              expired: PASSKEY_ERRORS.expiredRequest,
              verification: PASSKEY_ERRORS.notVerified,
              registered: PASSKEY_ERRORS.registered,
            },
          }),
        },
      }),
      async (request) => {
        const userId = await personOf(request);
        // The body's credential is WebAuthn's JSON; its signature, checked by the service, is what counts.
        const added = await passkeys.register(userId, request.body.response as RegistrationResponseJSON, request.body.name);
        return toPasskey(added);
      },
    );

    app.delete(
      '/auth/passkeys/:id',
      signedInRoute({
        limit: 'read',
        summary: 'Remove a passkey',
        description: `${signedInOnly} It signs nobody in from then on. Another person's, or an unknown id, is 404.`,
        params: PasskeyParams,
        response: {
          200: Success,
          403: errorResponse(403),
          404: errorResponse(404, { description: 'E_NOT_FOUND: not one of your passkeys.', examples: { notFound: PASSKEY_ERRORS.notFound } }),
        },
      }),
      async (request) => {
        await passkeys.remove(await personOf(request), request.params.id);
        return { success: true as const };
      },
    );

    app.post(
      '/auth/passkeys/sign-in/options',
      openRoute({
        limit: 'sign-in',
        summary: 'Start signing in with a passkey',
        description:
          'The options for navigator.credentials.get(): no email is asked, the authenticator offers its own passkeys for this ' +
          'server. Counted on the sign-in limits.',
        response: { 200: CeremonyOptions, 403: errorResponse(403) },
      }),
      async (request) => {
        refuseCrossSite(request);
        return passkeys.signInOptions();
      },
    );

    app.post(
      '/auth/passkeys/sign-in',
      openRoute({
        limit: 'sign-in',
        summary: 'Sign in with a passkey',
        description:
          'Starts a session as a password sign-in does (the same cookie). Every failure (an unknown passkey, a bad signature, ' +
          'a challenge used or expired) gets the same 401. Counted on the sign-in limits (429).',
        body: SignInBody,
        response: {
          200: Me,
          401: errorResponse(401, { description: 'E_UNAUTHORIZED_ACCESS: the passkey was not accepted.' }),
          403: errorResponse(403),
        },
      }),
      async (request, reply) => {
        refuseCrossSite(request);
        return answerSignedIn(request, reply, await passkeys.signIn(request.body.response as AuthenticationResponseJSON));
      },
    );

    app.post(
      '/auth/invitation/passkey/options',
      openRoute({
        limit: 'sign-in',
        summary: 'Start accepting an invitation with a passkey',
        description:
          'The options for navigator.credentials.create() for the person an invitation is for, instead of a password. ' +
          'Unknown is 404; used or expired is 422.',
        body: InvitationToken,
        response: { 200: CeremonyOptions, 403: errorResponse(403), ...invitationErrors() },
      }),
      async (request) => {
        refuseCrossSite(request);
        return passkeys.invitationOptions(request.body.token);
      },
    );

    app.post(
      '/auth/invitation/passkey',
      openRoute({
        limit: 'sign-in',
        summary: 'Accept an invitation with a passkey',
        description:
          'The authenticator’s answer to the options’ challenge: the person is made with this passkey (and no password), ' +
          'joins the workspace with the role and is signed in, in one transaction. Once only; an email that can sign in ' +
          'already (a password or a passkey) is refused and nothing is made.',
        body: AcceptWithPasskeyBody,
        response: { 200: Me, 403: errorResponse(403), ...invitationErrors() },
      }),
      async (request, reply) => {
        refuseCrossSite(request);
        const { token, response, displayName, name } = request.body;
        const { userId, accountId } = await passkeys.acceptInvitation(token, response as RegistrationResponseJSON, displayName, name);
        return answerSignedIn(request, reply, await sessions.start(userId, accountId));
      },
    );
  };
}
