// A workspace's members (decision 0028): the list, a role changed, a member removed. Thin: each calls
// PeopleService, which checks the caller's role after finding the member (another workspace's person is 404).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { PeopleService } from '../accounts/people-service.js';
import { parseRole } from '../accounts/roles.js';
import { BriefError } from '../errors.js';
import { documentedOnly, REQUIRED_AUTH } from '../http/api-docs.js';
import type { Authenticate } from '../http/auth.js';
import { errorResponse, errorResponses } from '../http/error-schemas.js';
import { Member, MemberPath, Members, RoleBody, Success } from './schemas.js';
import { COOKIE_AUTH } from './signed-in-routes.js';

const tags = ['sign-in and team'];

export function registerMemberRoutes(
  fastify: FastifyInstance,
  { people, authenticate }: { readonly people: PeopleService; readonly authenticate: Authenticate },
): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const options = { serializerCompiler: documentedOnly };

  app.get(
    '/auth/members',
    {
      ...options,
      config: { limit: 'read' },
      schema: {
        summary: "The workspace's members",
        description: COOKIE_AUTH,
        tags,
        security: REQUIRED_AUTH,
        response: { 200: Members, ...errorResponses(400, 401, 500, 503) },
      },
    },
    async (request) => {
      const caller = await authenticate(request);
      if (caller.anonymous) throw BriefError.unauthorized('This call needs a bearer token or a signed-in person');
      return people.members(caller);
    },
  );

  const memberErrors = {
    ...errorResponses(400, 401, 500, 503),
    403: errorResponse(403),
    404: errorResponse(404, { examples: 'memberNotFound' }),
  };

  app.patch(
    '/auth/members/:userId',
    {
      ...options,
      config: { limit: 'read' },
      schema: {
        summary: "Change a member's role",
        description:
          `${COOKIE_AUTH} An admin changes the roles of admins, members and viewers; only an owner makes someone owner or changes ` +
          "an owner's role. The last owner cannot be demoted (422). A person who is not a member of the caller's workspace is 404.",
        tags,
        security: REQUIRED_AUTH,
        params: MemberPath,
        body: RoleBody,
        response: { 200: Member, ...memberErrors, 422: errorResponse(422, { examples: 'memberValidation' }) },
      },
    },
    async (request) => {
      const caller = await authenticate(request);
      return people.changeRole(caller, request.params.userId, parseRole(request.body.role));
    },
  );

  app.delete(
    '/auth/members/:userId',
    {
      ...options,
      config: { limit: 'read' },
      schema: {
        summary: 'Remove a member',
        description:
          `${COOKIE_AUTH} Removes the person from the workspace (an admin; an owner only by an owner) and ends their sessions in ` +
          "it at once. The last owner cannot be removed (422). A person who is not a member of the caller's workspace is 404.",
        tags,
        security: REQUIRED_AUTH,
        params: MemberPath,
        response: { 200: Success, ...memberErrors, 422: errorResponse(422, { examples: 'memberValidation' }) },
      },
    },
    async (request) => {
      const caller = await authenticate(request);
      await people.removeMember(caller, request.params.userId);
      return { success: true as const };
    },
  );
}
