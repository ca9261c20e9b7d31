import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ACCOUNT_ERRORS } from '../accounts/account-errors.js';
import { documentedOnly, REQUIRED_AUTH } from '../http/api-docs.js';
import type { WorkspaceCaller } from '../http/auth.js';
import { errorResponse, workspaceCallErrors, workspaceNotFoundResponse } from '../http/error-schemas.js';
import type { WebhookDelivery } from '../storage/stores/webhooks.js';
import {
  type Delivery,
  DeliveryList,
  Delivery as DeliverySchema,
  NewWebhookBody,
  type Webhook,
  WebhookEdit,
  WebhookList,
  WebhookPath,
  WebhookRemoved,
  Webhook as WebhookSchema,
  WebhooksQuery,
  WebhookWithSecret,
} from './schemas.js';
import { WEBHOOK_ERRORS } from './webhook-errors.js';
import type { WebhookService, WebhookView } from './webhook-service.js';

const tags = ['webhooks'];
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const toWebhook = (view: WebhookView): Webhook => ({
  id: view.id,
  url: view.url,
  events: [...view.events],
  includeBots: view.includeBots,
  createdAt: new Date(view.createdAt).toISOString(),
  previousSecretUntil: iso(view.previousSecretUntil),
  disabledAt: iso(view.disabledAt),
  disabledReason: view.disabledReason,
});

const toDelivery = (delivery: WebhookDelivery): Delivery => ({
  id: delivery.id,
  eventId: delivery.eventId,
  type: delivery.type,
  status: delivery.status,
  attempts: delivery.attempts,
  responseStatus: delivery.responseStatus,
  lastError: delivery.lastError,
  createdAt: new Date(delivery.createdAt).toISOString(),
  lastAttemptAt: iso(delivery.lastAttemptAt),
  nextAttemptAt: delivery.status === 'pending' ? iso(delivery.nextAttemptAt) : null,
  deliveredAt: iso(delivery.deliveredAt),
});

const notFound = errorResponse(404, {
  examples: { notFound: WEBHOOK_ERRORS.notFound, workspace: ACCOUNT_ERRORS.workspaceNotFound },
  description: "E_NOT_FOUND: not a webhook of the caller's workspace.",
});
const badInput = errorResponse(422, {
  examples: { url: WEBHOOK_ERRORS.badUrl, event: WEBHOOK_ERRORS.unknownEvent, noEvents: WEBHOOK_ERRORS.noEvents },
});

/**
 * A workspace's webhooks under /v3 (issue 41): add (the secret answered once), list, remove, rotate the secret.
 * Each needs a token with webhooks:write (or a session) and the admin role or above.
 */
export function webhookRoutes(webhooks: WebhookService, callerIn: WorkspaceCaller) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const options = { serializerCompiler: documentedOnly, config: { limit: 'read', scope: 'webhooks:write' } } as const;
    const errors = { ...workspaceCallErrors(), 404: workspaceNotFoundResponse() };

    app.post(
      '/webhooks',
      {
        ...options,
        schema: {
          summary: 'Add a webhook',
          description:
            'An endpoint of the workspace that is sent the events chosen, signed in the Standard Webhooks format. `secret` is ' +
            'answered this once. An admin and above (a member is 403).',
          tags,
          security: REQUIRED_AUTH,
          querystring: WebhooksQuery,
          body: NewWebhookBody,
          response: { 200: WebhookWithSecret, ...errors, 422: badInput },
        },
      },
      async (request) => {
        const caller = await callerIn(request, request.query.workspaceId, 'account');
        const { view, secret } = await webhooks.add(caller, request.body);
        return { ...toWebhook(view), secret };
      },
    );

    app.get(
      '/webhooks',
      {
        ...options,
        schema: {
          summary: "The workspace's webhooks",
          description: 'URL, events, whether bots are sent, a rotation under way, and why one was disabled; never a secret.',
          tags,
          security: REQUIRED_AUTH,
          querystring: WebhooksQuery,
          response: { 200: WebhookList, ...errors },
        },
      },
      async (request) => {
        const caller = await callerIn(request, request.query.workspaceId, 'account');
        return (await webhooks.list(caller)).map(toWebhook);
      },
    );

    app.delete(
      '/webhooks/:id',
      {
        ...options,
        schema: {
          summary: 'Remove a webhook',
          description: 'Nothing more is sent to it. Another workspace’s webhook is not found.',
          tags,
          security: REQUIRED_AUTH,
          params: WebhookPath,
          querystring: WebhooksQuery,
          response: { 200: WebhookRemoved, ...errors, 404: notFound, 422: badInput },
        },
      },
      async (request) => {
        const caller = await callerIn(request, request.query.workspaceId, 'account');
        await webhooks.remove(caller, request.params.id);
        return { success: true as const };
      },
    );

    app.patch(
      '/webhooks/:id',
      {
        ...options,
        schema: {
          summary: 'Turn a webhook on or off',
          description:
            '`{"enabled": true}` sends to a disabled webhook again (its reason cleared, its 3 days of failures counted afresh) ' +
            'from its next event; deliveries that failed while it was disabled stay failed. `{"enabled": false}` stops sending to it.',
          tags,
          security: REQUIRED_AUTH,
          params: WebhookPath,
          querystring: WebhooksQuery,
          body: WebhookEdit,
          response: { 200: WebhookSchema, ...errors, 404: notFound, 422: badInput },
        },
      },
      async (request) => {
        const caller = await callerIn(request, request.query.workspaceId, 'account');
        return toWebhook(await webhooks.setEnabled(caller, request.params.id, request.body.enabled));
      },
    );

    app.post(
      '/webhooks/:id/rotate',
      {
        ...options,
        schema: {
          summary: "Rotate a webhook's secret",
          description:
            'A new secret, answered this once. For 24 hours deliveries carry two signatures, by the new secret and the old ' +
            '(space-separated in `webhook-signature`), so a receiver can switch to the new one without missing a delivery.',
          tags,
          security: REQUIRED_AUTH,
          params: WebhookPath,
          querystring: WebhooksQuery,
          response: { 200: WebhookWithSecret, ...errors, 404: notFound, 422: badInput },
        },
      },
      async (request) => {
        const caller = await callerIn(request, request.query.workspaceId, 'account');
        const { view, secret } = await webhooks.rotate(caller, request.params.id);
        return { ...toWebhook(view), secret };
      },
    );

    app.get(
      '/webhooks/:id/deliveries',
      {
        ...options,
        schema: {
          summary: "A webhook's deliveries",
          description: 'The latest 50, newest first: event, status, attempts, the last answer’s status or error, and when.',
          tags,
          security: REQUIRED_AUTH,
          params: WebhookPath,
          querystring: WebhooksQuery,
          response: { 200: DeliveryList, ...errors, 404: notFound, 422: badInput },
        },
      },
      async (request) => {
        const caller = await callerIn(request, request.query.workspaceId, 'account');
        return (await webhooks.deliveriesOf(caller, request.params.id)).map(toDelivery);
      },
    );

    app.post(
      '/webhooks/:id/test',
      {
        ...options,
        schema: {
          summary: 'Send a test event',
          description:
            'A `webhook.test` event to this webhook alone, sent at once and signed as every delivery is; answered with the ' +
            'delivery, pending: its outcome shows in the deliveries within the send’s 10 s. Retried like any other when it fails.',
          tags,
          security: REQUIRED_AUTH,
          params: WebhookPath,
          querystring: WebhooksQuery,
          response: { 200: DeliverySchema, ...errors, 404: notFound, 422: badInput },
        },
      },
      async (request) => {
        const caller = await callerIn(request, request.query.workspaceId, 'account');
        return toDelivery(await webhooks.sendTest(caller, request.params.id));
      },
    );
  };
}
