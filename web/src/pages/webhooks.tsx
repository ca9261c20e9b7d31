import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { WebhookEventType } from '../../../src/storage/stores/webhooks';
import { ApiError, api, type Delivery, type Webhook, type WebhookWithSecret } from '../api';
import { DialogActions } from '../components/dialog-actions';
import { errorsByField, Field } from '../components/field';
import { Modal } from '../components/modal';
import { SettingsList, useSettingsList } from '../components/settings-list';
import { ShownOnce } from '../components/shown-once';
import { formatDateTime } from '../format';
import { useSession } from '../session';

/** What each event is, for the New webhook form (a Record, so an event added on the server fails the typecheck until it is here). */
const EVENT_LABELS: Record<WebhookEventType, string> = {
  'link.created': 'A link is made',
  'link.updated': 'A link is edited',
  'link.deleted': 'A link is deleted',
  'link.clicked': 'Links are visited (many visits a delivery)',
  'domain.verified': 'A domain is verified',
};
const EVENTS = Object.keys(EVENT_LABELS) as WebhookEventType[];

const STATUS_BADGES: Record<Delivery['status'], string> = { delivered: 'badge good', pending: 'badge note', failed: 'badge bad' };

/** Settings → Webhooks: the workspace's endpoints, each with its recent deliveries and Send test event; New webhook (the secret shown once) and Remove. */
export function Webhooks(props: { headingId: string }) {
  const { person } = useSession();
  const role = person?.workspace.role ?? 'owner';
  const mayManage = role === 'owner' || role === 'admin';
  const list = useSettingsList(mayManage ? api.webhooks : async () => [], 'Could not load the webhooks.');
  const [adding, setAdding] = useState(false);

  return (
    <>
      <div class="toolbar">
        <h2 id={props.headingId} class="grow">
          Webhooks
        </h2>
        {mayManage && (
          <button type="button" class="primary" onClick={() => setAdding(true)}>
            New webhook
          </button>
        )}
      </div>
      <p class="muted">
        {mayManage
          ? 'Brief sends the events you choose to your endpoints, signed in the Standard Webhooks format, and retries for a day when they fail.'
          : 'Admins and owners manage the workspace’s webhooks.'}
      </p>
      <SettingsList
        list={list}
        empty={mayManage ? 'No webhooks.' : undefined}
        itemKey={(hook) => hook.id}
        cards={{
          class: 'domains',
          itemClass: 'domain',
          card: (hook, removeButton) => <WebhookCard hook={hook} removeButton={removeButton} onChanged={list.changed} />,
        }}
        removal={{
          action: 'Remove',
          name: (hook) => hook.url,
          title: 'Remove this webhook?',
          failure: 'Could not remove the webhook.',
          warning: (hook) => (
            <>
              Nothing more is sent to <strong class="break">{hook.url}</strong>, and its deliveries are forgotten.
            </>
          ),
          act: async (hook) => {
            await api.removeWebhook(hook.id);
            return `Removed the webhook to ${hook.url}.`;
          },
        }}
      />
      {adding && (
        <NewWebhookDialog
          onDone={(message) => {
            setAdding(false);
            if (message) list.changed(message);
          }}
        />
      )}
    </>
  );
}

/** One webhook: where it sends, what, whether it is disabled and why (and Re-enable), its recent deliveries, Send test event. */
function WebhookCard(props: { hook: Webhook; removeButton: ComponentChildren; onChanged: (message: string) => void }) {
  const { hook } = props;
  const [deliveries, setDeliveries] = useState<Delivery[] | null>(null);
  const [notice, setNotice] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = () =>
    api.webhookDeliveries(hook.id).then(
      (answer) => setDeliveries(answer.slice(0, 10)),
      () => setProblem('Could not load the deliveries.'),
    );
  useEffect(() => {
    void load();
  }, [hook.id]);

  const sendTest = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const queued = await api.testWebhook(hook.id);
      setNotice('Test event sent.');
      await load();
      // The worker sends it at once; its outcome is in the list within a few seconds.
      for (const wait of [500, 1000, 2000, 4000]) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        const answer = await api.webhookDeliveries(hook.id);
        setDeliveries(answer.slice(0, 10));
        if (answer.find((delivery) => delivery.id === queued.id)?.attempts) break;
      }
    } catch (e) {
      setProblem(e instanceof ApiError ? e.message : 'Could not send the test event.');
    }
    setBusy(false);
  };

  const reenable = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await api.enableWebhook(hook.id);
      props.onChanged(`Re-enabled the webhook to ${hook.url}: its next events are sent.`);
    } catch (e) {
      setProblem(e instanceof ApiError ? e.message : 'Could not re-enable the webhook.');
    }
    setBusy(false);
  };

  return (
    <>
      <h3 class="break">{hook.url}</h3>
      <p>
        {hook.disabledAt ? <span class="badge bad">Disabled</span> : <span class="badge good">Active</span>} {hook.events.join(', ')}
        {hook.includeBots && ' (bots included)'}
      </p>
      {hook.disabledAt && (
        <p class="error">
          Disabled {formatDateTime(hook.disabledAt)}: {hook.disabledReason}
        </p>
      )}
      <p class="notice" role="status">
        {notice}
      </p>
      {problem && (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
      {deliveries && deliveries.length === 0 && <p class="muted">No deliveries yet.</p>}
      {deliveries && deliveries.length > 0 && (
        <div class="table-wrap">
          <table class="links tokens">
            <caption class="visually-hidden">Recent deliveries to {hook.url}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Response</th>
                <th scope="col">Time</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <td data-label="Event">{delivery.type}</td>
                  <td data-label="Status">
                    <span class={STATUS_BADGES[delivery.status]}>{delivery.status}</span>
                  </td>
                  <td data-label="Attempts">{delivery.attempts}</td>
                  <td data-label="Response" class="break">
                    {delivery.responseStatus ?? delivery.lastError ?? '–'}
                  </td>
                  <td data-label="Time" class="date">
                    {formatDateTime(delivery.lastAttemptAt ?? delivery.createdAt)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="row-actions">
        {hook.disabledAt && (
          <button type="button" class="primary" disabled={busy} onClick={reenable}>
            Re-enable <span class="visually-hidden">{hook.url}</span>
          </button>
        )}
        <button type="button" class="secondary" disabled={busy} onClick={sendTest}>
          Send test event <span class="visually-hidden">to {hook.url}</span>
        </button>
        {props.removeButton}
      </div>
    </>
  );
}

function NewWebhookDialog(props: { onDone: (message?: string) => void }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<WebhookWithSecret | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const url = String(form.get('url') ?? '').trim();
    const events = form.getAll('events').map(String);
    if (url === '') return setErrors({ url: 'Enter the URL to send to.' });
    if (events.length === 0) return setErrors({ events: 'Choose at least one event.' });
    setBusy(true);
    try {
      setMade(await api.createWebhook({ url, events, includeBots: form.get('includeBots') === 'on' }));
    } catch (e) {
      setErrors(e instanceof ApiError ? errorsByField(e, ['url', 'events']) : { form: 'Could not add the webhook.' });
      setBusy(false);
    }
  };

  if (made) {
    const done = () => props.onDone(`Added the webhook to ${made.url}.`);
    return (
      <ShownOnce title="Webhook added" id="new-webhook-secret" label="Signing secret" value={made.secret} onDone={done}>
        <p>Copy the signing secret now: it is not shown again. Your endpoint checks each delivery’s signature with it.</p>
      </ShownOnce>
    );
  }

  return (
    <Modal title="New webhook" onClose={() => props.onDone()}>
      <form onSubmit={submit} noValidate>
        <Field
          id="webhook-url"
          label="Endpoint URL"
          error={errors.url}
          hint="An https URL that answers 2xx, such as https://hooks.example.com/brief."
        >
          {(aria) => <input {...aria} name="url" type="url" maxLength={2000} autoComplete="off" required />}
        </Field>
        <fieldset class={errors.events ? 'scopes invalid' : 'scopes'} aria-describedby={errors.events ? 'webhook-events-error' : undefined}>
          <legend>Events</legend>
          {EVENTS.map((name) => (
            <div key={name} class="check">
              <input id={`event-${name}`} type="checkbox" name="events" value={name} defaultChecked={name !== 'link.clicked'} />
              <label for={`event-${name}`}>
                {EVENT_LABELS[name]} <code>{name}</code>
              </label>
            </div>
          ))}
          <div class="check">
            <input id="webhook-bots" type="checkbox" name="includeBots" />
            <label for="webhook-bots">Bots’ visits too (link.clicked)</label>
          </div>
          {errors.events && (
            <p class="error" id="webhook-events-error">
              {errors.events}
            </p>
          )}
        </fieldset>
        {errors.form && (
          <p class="error" role="alert">
            {errors.form}
          </p>
        )}
        {(errors.url || errors.events) && (
          <p class="visually-hidden" role="alert">
            {errors.url ?? errors.events}
          </p>
        )}
        <DialogActions label="Add" busy={busy} onCancel={props.onDone} />
      </form>
    </Modal>
  );
}
