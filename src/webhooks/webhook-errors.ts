// The errors of webhooks, declared once (decision 0037): webhook-service.ts throws them, the /v3/webhooks
// routes show them in the API document.
import { BriefError, declareError } from '../errors.js';
import { WEBHOOK_EVENTS } from '../storage/stores/webhooks.js';

export const WEBHOOK_ERRORS = {
  notFound: declareError("Not a webhook of the caller's workspace", () => BriefError.notFound('Webhook not found')),
  badUrl: declareError(
    'A URL Brief does not send to',
    (reason: string) => BriefError.invalid('url', 'url', `The url field must be an https URL of a public host: ${reason}`),
    'only https URLs are sent to',
  ),
  unknownEvent: declareError(
    'An event that does not exist',
    (event: string) => BriefError.invalid('events', 'enum', `Unknown event "${event}": the events are ${WEBHOOK_EVENTS.join(', ')}`),
    'link.visited',
  ),
  noEvents: declareError('An empty list of events', () => BriefError.invalid('events', 'minItems', 'Choose at least one event')),
};
