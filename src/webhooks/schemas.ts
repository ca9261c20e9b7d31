// The webhook routes' data schemas: validation, types and the API document. No Node modules here.
import { type Static, Type } from '@sinclair/typebox';
import { ROW_ID_MAX } from '../storage/stores/row-ids.js';
import { WEBHOOK_EVENTS, type WebhookEventType } from '../storage/stores/webhooks.js';

const eventNames = WEBHOOK_EVENTS.join(', ');

export const WebhooksQuery = Type.Object({
  workspaceId: Type.Optional(
    Type.String({
      description: "The caller's workspace id; absent, empty or `undefined` mean the caller's own. Another account's is not found (404).",
    }),
  ),
});

export const WebhookPath = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: ROW_ID_MAX, description: 'The webhook’s id, as the list gives it.' }),
});

const when = (description: string) => Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

export const Webhook = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String({ description: 'Where deliveries are POSTed.' }),
    events: Type.Array(Type.Unsafe<WebhookEventType>({ type: 'string', enum: [...WEBHOOK_EVENTS] }), { description: `Of ${eventNames}.` }),
    includeBots: Type.Boolean({ description: 'Whether link.clicked carries the visits of bots too (people only when false).' }),
    createdAt: Type.String({ format: 'date-time' }),
    previousSecretUntil: when('While a rotation is under way, until when the previous secret signs as well; null otherwise.'),
    disabledAt: when('When Brief stopped sending to it (it had failed for 3 days); null: it is sent to.'),
    disabledReason: Type.Union([Type.String(), Type.Null()], { description: 'Why it was disabled; null when it is not.' }),
  },
  { additionalProperties: false },
);

export const WebhookList = Type.Array(Webhook, { description: "The workspace's webhooks, oldest first. Never a secret." });

export const NewWebhookBody = Type.Object(
  {
    url: Type.String({
      maxLength: 10_000,
      description: 'An https URL of a public host (hosts in WEBHOOK_ALLOW_HOSTS may be http and private), at most 2,000 characters.',
    }),
    events: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20, description: `At least one of ${eventNames}.` }),
    includeBots: Type.Optional(Type.Boolean({ description: 'link.clicked for bots’ visits too. Left out: false (people only).' })),
  },
  { additionalProperties: false, examples: [{ url: 'https://hooks.example.com/brief', events: ['link.created', 'link.clicked'] }] },
);

export const WebhookEdit = Type.Object(
  {
    enabled: Type.Boolean({
      description:
        'true: send to it again (a webhook disabled after 3 days of failures, or turned off), from its next event; deliveries that ' +
        'failed meanwhile stay failed. false: stop sending to it, as a disabling does.',
    }),
  },
  { additionalProperties: false, examples: [{ enabled: true }] },
);

export const WebhookWithSecret = Type.Object(
  {
    ...Webhook.properties,
    secret: Type.String({
      description: 'The signing secret (`whsec_…`, Standard Webhooks): shown this once. Brief keeps it to sign, and never answers it again.',
    }),
  },
  { additionalProperties: false },
);

export const WebhookRemoved = Type.Object({ success: Type.Literal(true) }, { additionalProperties: false });

export const Delivery = Type.Object(
  {
    id: Type.Integer(),
    eventId: Type.String({ description: 'The `webhook-id` of every attempt (`msg_…`): the same on each retry, so a receiver can drop repeats.' }),
    type: Type.String({ description: `The event: ${eventNames}; links.imported or links.deleted (many links at once); or webhook.test.` }),
    status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')], {
      description: 'pending: not yet answered 2xx and still retried; delivered: answered 2xx; failed: retried for 24 hours, then given up.',
    }),
    attempts: Type.Integer({ description: 'How many times it was sent.' }),
    responseStatus: Type.Union([Type.Integer(), Type.Null()], { description: "The last attempt's HTTP status; null when none came." }),
    lastError: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the last attempt failed (`answered 500`, `no answer within 10 s`, a refusal); null when it did not.',
    }),
    createdAt: Type.String({ format: 'date-time', description: 'When the event happened.' }),
    lastAttemptAt: when('When it was last sent; null: not yet.'),
    nextAttemptAt: when('When it will be sent again (pending only); null otherwise.'),
    deliveredAt: when('When the receiver answered 2xx; null: not yet.'),
  },
  { additionalProperties: false },
);

export const DeliveryList = Type.Array(Delivery, { description: "The webhook's latest 50 deliveries, newest first." });

export type Webhook = Static<typeof Webhook>;
export type Delivery = Static<typeof Delivery>;
export type WebhookWithSecret = Static<typeof WebhookWithSecret>;
