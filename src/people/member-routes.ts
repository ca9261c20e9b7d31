// A workspace's members (decision 0028): the list, a role changed, a member removed. Thin: each calls
// PeopleService, which checks the caller's role after finding the member (another workspace's person is 404).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { parseRole, ROLE_ERRORS } from '../accounts/roles.js';
import type { Authenticate } from '../http/auth.js';
import { errorResponse } from '../http/error-schemas.js';
import { PEOPLE_ERRORS } from './people-errors.js';
import type { PeopleService } from './people-service.js';
import { Member, MemberPath, Members, RoleBody, Success } from './schemas.js';
import { COOKIE_AUTH, signedInRoute } from './signed-in-routes.js';

export function registerMemberRoutes(
  fastify: FastifyInstance,
  { people, authenticate }: { readonly people: PeopleService; readonly authenticate: Authenticate },
): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/auth/members',
    signedInRoute({
      limit: 'read',
      summary: "The workspace's members",
      description: `${COOKIE_AUTH} Every role may list them; a token needs the members:read scope (admin and owner tokens hold it), as the list names people's emails.`,
      response: {
        200: Members,
        403: errorResponse(403, { description: 'E_FORBIDDEN: a token without the members:read scope.' }),
      },
    }),
    async (request) => {
      const caller = await authenticate(request);
      if (caller.anonymous) throw PEOPLE_ERRORS.needsCaller();
      return people.members(caller);
    },
  );

  /** What a change of a member may answer besides 200 (made anew for each route, as the document generator edits them). */
  const memberErrors = () => ({
    403: errorResponse(403),
    404: errorResponse(404, { examples: { notFound: PEOPLE_ERRORS.memberNotFound } }),
    422: errorResponse(422, {
      examples: { role: ROLE_ERRORS.notARole, lastOwner: PEOPLE_ERRORS.lastOwnerDemoted, lastOwnerRemoved: PEOPLE_ERRORS.lastOwnerRemoved },
    }),
  });

  app.patch(
    '/auth/members/:userId',
    signedInRoute({
      limit: 'read',
      summary: "Change a member's role",
      description:
        `${COOKIE_AUTH} An admin changes the roles of admins, members and viewers; only an owner makes someone owner or changes ` +
        "an owner's role. The last owner cannot be demoted (422). A person who is not a member of the caller's workspace is 404. " +
        'A role lowered caps the tokens the person made (each acts with at most their role) and revokes their pending ' +
        'invitations that grant a role above the new one, in the same transaction.',
      params: MemberPath,
      body: RoleBody,
      response: { 200: Member, ...memberErrors() },
    }),
    async (request) => {
      const caller = await authenticate(request);
      return people.changeRole(caller, request.params.userId, parseRole(request.body.role));
    },
  );

  app.delete(
    '/auth/members/:userId',
    signedInRoute({
      limit: 'read',
      summary: 'Remove a member',
      description:
        `${COOKIE_AUTH} Removes the person from the workspace (an admin; an owner only by an owner), and in the same ` +
        'transaction ends their sessions in it and revokes the tokens and pending invitations they made there. The last owner ' +
        "cannot be removed (422). A person who is not a member of the caller's workspace is 404.",
      params: MemberPath,
      response: { 200: Success, ...memberErrors() },
    }),
    async (request) => {
      const caller = await authenticate(request);
      await people.removeMember(caller, request.params.userId);
      return { success: true as const };
    },
  );
}
