import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ACCOUNT_ERRORS } from '../accounts/account-errors.js';
import { documentedOnly, REQUIRED_AUTH } from '../http/api-docs.js';
import type { WorkspaceCaller } from '../http/auth.js';
import { errorResponse, workspaceCallErrors, workspaceNotFoundResponse } from '../http/error-schemas.js';
import { TAG_ERRORS } from './tag-names.js';
import { Tag, TagEditBody, TagList, TagPath } from './tag-schemas.js';
import type { TagService } from './tag-service.js';
import { LinkQuery, Success } from './v3-schemas.js';

const tags = ['v3 tags'];

const tagNotFound = errorResponse(404, {
  examples: { notFound: TAG_ERRORS.notFound, workspace: ACCOUNT_ERRORS.workspaceNotFound },
  description: "E_NOT_FOUND: no tag of that name (in any case) in the caller's workspace.",
});
const badName = { name: TAG_ERRORS.badName.exampleWith(['name', '', 'it is empty'], 'An empty name') };

const listSchema = {
  summary: "The workspace's tags",
  description:
    'Each with its colour and the live links that carry it, sorted by name ignoring case. A tag comes into being when a link first carries its name.',
  tags,
  security: REQUIRED_AUTH,
  querystring: LinkQuery,
  response: { 200: TagList, ...workspaceCallErrors(), 404: workspaceNotFoundResponse() },
};

const editSchema = {
  summary: 'Rename or recolour a tag',
  description:
    'Every link carrying the tag shows its new name. Renaming onto the name of another tag of the workspace (in any case) is 409; ' +
    'to another case of its own name is a rename.',
  tags,
  security: REQUIRED_AUTH,
  params: TagPath,
  querystring: LinkQuery,
  body: TagEditBody,
  response: {
    200: Tag,
    ...workspaceCallErrors(),
    404: tagNotFound,
    409: errorResponse(409, { examples: { taken: TAG_ERRORS.nameTaken } }),
    422: errorResponse(422, { examples: { ...badName, color: TAG_ERRORS.badColor } }),
  },
};

const deleteSchema = {
  summary: 'Delete a tag',
  description: 'Takes the tag off every link of the workspace (they keep their other tags), then deletes it.',
  tags,
  security: REQUIRED_AUTH,
  params: TagPath,
  querystring: LinkQuery,
  response: { 200: Success, ...workspaceCallErrors(), 404: tagNotFound, 422: errorResponse(422, { examples: badName }) },
};

/** The tag calls (docs/api/v3.md, "Tags"), under /v3: reads need `links:read`, changes `links:write` and a member's role. */
export function tagRoutes(tagService: TagService, callerIn: WorkspaceCaller) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const options = { serializerCompiler: documentedOnly };

    app.get('/tags', { ...options, config: { limit: 'read', scope: 'links:read' }, schema: listSchema }, async (request) => {
      const caller = await callerIn(request, request.query.workspaceId, 'account');
      return tagService.list(caller);
    });

    app.patch('/tags/:name', { ...options, config: { limit: 'read', scope: 'links:write' }, schema: editSchema }, async (request) => {
      const caller = await callerIn(request, request.query.workspaceId, 'account');
      return tagService.edit(caller, request.params.name, request.body ?? {});
    });

    app.delete('/tags/:name', { ...options, config: { limit: 'read', scope: 'links:write' }, schema: deleteSchema }, async (request) => {
      const caller = await callerIn(request, request.query.workspaceId, 'account');
      await tagService.delete(caller, request.params.name);
      return { success: true as const };
    });
  };
}
