// A signed-in person's password change and a reset link's new password, under /auth (decision 0034).
// Thin: each calls PasswordChanges.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { fieldExample, tooShort } from '../errors.js';
import type { Authenticate } from '../http/auth.js';
import { errorResponse, passwordsBusyResponse } from '../http/error-schemas.js';
import { sessionCookieOf } from '../http/session-cookie.js';
import type { PasswordChanges } from './password-changes.js';
import { PEOPLE_ERRORS } from './people-errors.js';
import { ChangePasswordBody, ResetPasswordBody, Success } from './schemas.js';
import { oneTimeLinkErrors, openRoute, signedInCaller, signedInRoute } from './signed-in-routes.js';
import { PASSWORD_MIN_LENGTH } from './user-passwords.js';

export interface PasswordRouteDeps {
  /** Which session cookie a request's scheme reads (http/session-cookie.ts). */
  readonly config: Pick<Config, 'defaultDomain'>;
  readonly passwordChanges: PasswordChanges;
  readonly authenticate: Authenticate;
  /** Refuses a request another site made (http/session-cookie.ts). */
  readonly refuseCrossSite: (request: FastifyRequest) => void;
}

export function registerPasswordRoutes(
  fastify: FastifyInstance,
  { config, passwordChanges, authenticate, refuseCrossSite }: PasswordRouteDeps,
): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const signedIn = signedInCaller(authenticate);

  app.post(
    '/auth/password',
    signedInRoute({
      limit: 'sign-in',
      summary: 'Change your password',
      description:
        'A signed-in person (a session cookie, not a token) sets a new password (at least 10 characters) by giving the ' +
        'current one. The check counts as a sign-in does: per client address (RATE_LIMIT_SIGN_IN_ADDRESS) and against the ' +
        'person’s email (RATE_LIMIT_SIGN_IN, shared with sign-in), 429 over either; a wrong current password is 401. Every ' +
        'other session of the person ends at once, this one stays, and the old password signs nobody in any more. A cookie ' +
        'from another site is refused (403). While too many passwords are being checked on the server, 503 with Retry-After.',
      body: ChangePasswordBody,
      response: {
        200: Success,
        401: errorResponse(401, {
          description: 'E_UNAUTHORIZED_ACCESS: not signed in (a token is not enough), or the current password is wrong.',
        }),
        403: errorResponse(403),
        422: errorResponse(422, { examples: { password: fieldExample('A new password too short', tooShort('newPassword', PASSWORD_MIN_LENGTH)) } }),
        503: passwordsBusyResponse(),
      },
    }),
    async (request) => {
      // A cookie from another site is refused by authenticate, as on every cookie-authenticated call.
      const caller = await signedIn(request);
      const session = sessionCookieOf(config, request);
      if (session === undefined) throw PEOPLE_ERRORS.changeNeedsSession();
      await passwordChanges.change(caller.userId, session, request.body.currentPassword, request.body.newPassword);
      return { success: true as const };
    },
  );

  app.post(
    '/auth/password/reset',
    openRoute({
      limit: 'sign-in',
      summary: 'Set a new password with a reset link',
      description:
        'The page of a one-time reset link (`brief user reset EMAIL`, valid 1 hour; its secret after `#`) sets the ' +
        'person’s new password (at least 10 characters), once. Every session of the person ends; they sign in with the ' +
        'new password. Unknown is 404; used or expired is 422. Calls are limited per client address (429).',
      body: ResetPasswordBody,
      response: {
        200: Success,
        ...oneTimeLinkErrors(
          { unknown: PEOPLE_ERRORS.noResetLink, used: PEOPLE_ERRORS.resetLinkUsed, expired: PEOPLE_ERRORS.resetLinkExpired },
          'newPassword',
        ),
        503: passwordsBusyResponse(),
      },
    }),
    async (request) => {
      refuseCrossSite(request);
      await passwordChanges.reset(request.body.token, request.body.newPassword);
      return { success: true as const };
    },
  );
}
