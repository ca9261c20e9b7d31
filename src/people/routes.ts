// Password sign-in, sessions and the team (decision 0028), under /auth. Thin: each calls a service.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseRole, ROLE_ERRORS } from '../accounts/roles.js';
import type { Config } from '../config.js';
import type { Authenticate } from '../http/auth.js';
import { errorResponse, passwordsBusyResponse } from '../http/error-schemas.js';
import { clearedSessionCookie, sessionCookieOf } from '../http/session-cookie.js';
import { registerMemberRoutes } from './member-routes.js';
import type { PasswordChanges } from './password-changes.js';
import { registerPasswordRoutes } from './password-routes.js';
import { PEOPLE_ERRORS } from './people-errors.js';
import type { PeopleService } from './people-service.js';
import {
  AcceptBody,
  InvitationToken,
  InvitationView,
  InviteBody,
  MadeInvitation,
  Me,
  SignInBody,
  Success,
  SwitchBody,
  Workspaces,
} from './schemas.js';
import type { SessionService } from './session-service.js';
import { COOKIE_AUTH, invitationErrors, openRoute, signedInCaller, signedInRoute, signInAnswer } from './signed-in-routes.js';

const iso = (ms: number) => new Date(ms).toISOString();

export interface PeopleRouteDeps {
  readonly config: Pick<Config, 'defaultDomain' | 'sessionMaxMs'>;
  readonly sessions: SessionService;
  readonly people: PeopleService;
  readonly passwordChanges: PasswordChanges;
  readonly authenticate: Authenticate;
  /** Refuses a cookie-authenticated request another site made (http/session-cookie.ts). */
  readonly refuseCrossSite: (request: FastifyRequest) => void;
}

export function peopleRoutes({ config, sessions, people, passwordChanges, authenticate, refuseCrossSite }: PeopleRouteDeps) {
  /** A signed-in person (a session, not a token). */
  const signedIn = signedInCaller(authenticate);
  const answerSignedIn = signInAnswer(config, sessions);

  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/auth/sign-in',
      openRoute({
        limit: 'sign-in',
        summary: 'Sign in with an email and password',
        description:
          'Starts a session: its cookie is HttpOnly, SameSite=Lax, Secure under https. A wrong password and an unknown email ' +
          'get the same answer. Attempts are limited per client address (RATE_LIMIT_SIGN_IN_ADDRESS) and per email ' +
          '(RATE_LIMIT_SIGN_IN, shared with every other check of that person’s password): 429. While too many passwords are ' +
          'being checked on the server, 503 with Retry-After.',
        body: SignInBody,
        response: {
          200: Me,
          401: errorResponse(401, { description: 'E_UNAUTHORIZED_ACCESS: wrong email or password.' }),
          503: passwordsBusyResponse(),
        },
      }),
      async (request, reply) => {
        refuseCrossSite(request);
        return answerSignedIn(request, reply, await sessions.signIn(request.body.email, request.body.password));
      },
    );

    app.post(
      '/auth/sign-out',
      openRoute({
        summary: 'Sign out',
        description: 'Ends the session on the server (its cookie signs nobody in any more, even if kept) and clears the cookie.',
        response: { 200: Success },
      }),
      async (request, reply) => {
        const session = sessionCookieOf(config, request);
        if (session) {
          refuseCrossSite(request);
          await sessions.signOut(session);
        }
        reply.header('set-cookie', clearedSessionCookie(config, request));
        return { success: true as const };
      },
    );

    app.get(
      '/auth/me',
      signedInRoute({
        summary: 'Who is signed in',
        description: 'The person, the workspace the session acts in and its role, and every workspace of the person.',
        response: { 200: Me },
      }),
      async (request) => sessions.whoIs(await signedIn(request)),
    );

    app.get(
      '/auth/workspaces',
      signedInRoute({
        summary: 'The signed-in person’s workspaces',
        description: 'Every workspace the person belongs to, with their role in it: what the switcher offers.',
        response: { 200: Workspaces },
      }),
      async (request) => (await sessions.whoIs(await signedIn(request))).workspaces,
    );

    const switchRoute = (deprecated: boolean) =>
      signedInRoute({
        summary: deprecated ? 'Switch workspace (the older path of POST /auth/workspace/switch)' : 'Switch workspace',
        description:
          'Moves the session to another of the person’s workspaces (by its workspaceId); any other is 404. A cookie from another ' +
          'site is refused (403), as on every cookie-authenticated change.',
        deprecated,
        body: SwitchBody,
        response: { 200: Me, 403: errorResponse(403), 404: errorResponse(404, { examples: 'workspaceNotFound' }) },
      });
    const switchWorkspace = async (request: FastifyRequest<{ Body: SwitchBody }>) => {
      const caller = await signedIn(request);
      const session = sessionCookieOf(config, request);
      if (session === undefined) throw PEOPLE_ERRORS.switchNeedsSession();
      await sessions.switchWorkspace(session, caller.userId!, request.body.workspaceId);
      return sessions.whoIs((await sessions.callerFor(session)) ?? caller);
    };
    app.post('/auth/workspace/switch', switchRoute(false), switchWorkspace);
    app.post('/auth/workspace', switchRoute(true), switchWorkspace);

    registerMemberRoutes(app, { people, authenticate });
    registerPasswordRoutes(app, { config, passwordChanges, authenticate, refuseCrossSite });

    app.post(
      '/auth/invitations',
      signedInRoute({
        limit: 'read',
        summary: 'Invite someone',
        description:
          `${COOKIE_AUTH} An admin (an owner, for the owner role) invites an email with a role; the answer's one-time link, ` +
          'valid 7 days, lets its holder set a password and join.',
        body: InviteBody,
        response: {
          200: MadeInvitation,
          403: errorResponse(403),
          422: errorResponse(422, { examples: { email: PEOPLE_ERRORS.badEmail, role: ROLE_ERRORS.notARole } }),
        },
      }),
      async (request) => {
        const caller = await authenticate(request);
        const made = await people.invite(caller, request.body.email, parseRole(request.body.role));
        return { ...made, expiresAt: iso(made.expiresAt) };
      },
    );

    app.post(
      '/auth/invitation',
      openRoute({
        limit: 'sign-in',
        summary: 'An invitation, by its secret',
        description:
          'Who it is for, which workspace and role: for the page that accepts it. Unknown is 404; used, used up (5 wrong ' +
          'passwords) or expired is 422.',
        body: InvitationToken,
        response: { 200: InvitationView, ...invitationErrors() },
      }),
      async (request) => {
        const found = await people.describeInvitation(request.body.token);
        return {
          email: found.email,
          workspace: found.accountName,
          role: found.role,
          expiresAt: iso(found.expiresAt),
          existingUser: found.existingUser,
        };
      },
    );

    app.post(
      '/auth/invitation/accept',
      openRoute({
        limit: 'sign-in',
        summary: 'Accept an invitation',
        description:
          'Sets the person’s password (at least 10 characters), joins the workspace with the role and signs in. Once only. ' +
          'Someone who signs in already joins with their own password, or with no password when signed in as the ' +
          'invitation’s email; someone already in the workspace keeps their role. That password check counts as a sign-in ' +
          'does, against the invitation’s email (RATE_LIMIT_SIGN_IN a minute, shared with sign-in; 429); a wrong one is 401, ' +
          'and the 5th wrong one uses the invitation up (422 `usedUp` from then on). While too many passwords are being ' +
          'checked on the server, 503 with Retry-After.',
        body: AcceptBody,
        response: {
          200: Me,
          401: errorResponse(401, { description: 'E_UNAUTHORIZED_ACCESS: the wrong password of someone who signs in already.' }),
          ...invitationErrors(),
          503: passwordsBusyResponse(),
        },
      }),
      async (request, reply) => {
        refuseCrossSite(request);
        // A live session of the invitation's own email needs no password; an ended or unknown one is simply not used.
        const cookie = sessionCookieOf(config, request);
        const signedInAs = cookie ? (await sessions.callerFor(cookie))?.userId : undefined;
        const { userId, accountId } = await people.accept(request.body.token, request.body.password, request.body.displayName, signedInAs);
        return answerSignedIn(request, reply, await sessions.start(userId, accountId));
      },
    );
  };
}
