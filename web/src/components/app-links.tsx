import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, type WellKnownEntry, type WellKnownName } from '../api';
import { ConfirmDialog } from './confirm-dialog';
import { DialogActions } from './dialog-actions';
import { errorsByField, Field } from './field';
import { Modal } from './modal';

/** The two files, what they are for and the JSON each must be (the server checks it; src/domains/well-known-schemas.ts). */
const FILES = {
  'apple-app-site-association': { platform: 'iOS universal links', kind: 'A JSON object' },
  'assetlinks.json': { platform: 'Android App Links', kind: 'A JSON array' },
} satisfies Record<WellKnownName, { platform: string; kind: string }>;
const NAMES = Object.keys(FILES) as WellKnownName[];

/**
 * A domain's app links on its Domains card (decision 0042): whether each file is set and, for an admin, upload,
 * replace or remove it. `reloads` (the list's) draws it again after a change elsewhere on the page.
 */
export function AppLinks(props: { domain: string; verified: boolean; mayManage: boolean; reloads: number; onChanged: (message: string) => void }) {
  const { domain } = props;
  const [files, setFiles] = useState<WellKnownEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<{ kind: 'edit' | 'remove'; name: WellKnownName } | null>(null);
  const [loads, setLoads] = useState(0);

  useEffect(() => {
    let current = true;
    api.wellKnownFiles(domain).then(
      (answer) => current && setFiles(answer),
      (e: unknown) => current && setError(e instanceof ApiError ? e.message : 'Could not load the app links.'),
    );
    return () => {
      current = false;
    };
  }, [domain, props.reloads, loads]);

  const close = (message?: string) => {
    setDialog(null);
    if (!message) return;
    setLoads((n) => n + 1);
    props.onChanged(message);
  };

  return (
    <div class="app-links">
      <h4>App links</h4>
      {error && <p class="error">{error}</p>}
      {/* Lines, not list items: the domains' list holds the cards, and a card's items would count as the list's. */}
      <div class="app-link-lines">
        {NAMES.map((name) => {
          const set = files?.find((file) => file.name === name);
          return (
            <div key={name} class="app-link-line" data-file={name}>
              <code class="break">/.well-known/{name}</code> <span class="muted">({FILES[name].platform})</span>{' '}
              {files !== null && <span class={set ? 'badge good' : 'badge note'}>{set ? `Set, ${set.bytes} bytes` : 'Not set'}</span>}
              {props.mayManage && files !== null && (
                <span class="row-actions">
                  <button type="button" class="secondary" onClick={() => setDialog({ kind: 'edit', name })}>
                    {set ? 'Replace' : 'Upload'} <span class="visually-hidden">{`${name} of ${domain}`}</span>
                  </button>
                  {set && (
                    <button type="button" class="secondary" onClick={() => setDialog({ kind: 'remove', name })}>
                      Remove <span class="visually-hidden">{`${name} of ${domain}`}</span>
                    </button>
                  )}
                </span>
              )}
            </div>
          );
        })}
      </div>
      {!props.verified && <p class="hint">The domain serves its files once it is verified.</p>}
      {dialog?.kind === 'edit' && (
        <AppLinkDialog domain={domain} name={dialog.name} isSet={files?.some((file) => file.name === dialog.name) ?? false} onDone={close} />
      )}
      {dialog?.kind === 'remove' && (
        <ConfirmDialog
          title={`Remove ${dialog.name}?`}
          action="Remove"
          failure="Could not remove the file."
          act={async () => {
            await api.removeWellKnownFile(domain, dialog.name);
            return `Removed ${dialog.name} of ${domain}.`;
          }}
          onDone={close}
        >
          <strong class="break">{domain}</strong> stops serving <code>/.well-known/{dialog.name}</code>: {FILES[dialog.name].platform} stop opening
          its links in the app.
        </ConfirmDialog>
      )}
    </div>
  );
}

/** Upload or replace one file: its text in a box (read from a file, or pasted), sent as it is; the server's 422 at the box. */
function AppLinkDialog(props: { domain: string; name: WellKnownName; isSet: boolean; onDone: (message?: string) => void }) {
  const { domain, name } = props;
  const [text, setText] = useState('');
  const [loading, setLoading] = useState(props.isSet);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!props.isSet) return;
    api.wellKnownFile(domain, name).then(
      (current) => {
        setText(current);
        setLoading(false);
      },
      () => {
        setErrors({ form: 'Could not load the file as it is now.' });
        setLoading(false);
      },
    );
  }, []);

  const readFile = async (event: Event) => {
    const file = (event.currentTarget as HTMLInputElement).files?.[0];
    if (file) setText(await file.text());
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      const saved = await api.setWellKnownFile(domain, name, text);
      props.onDone(`Saved ${name} of ${domain} (${saved.bytes} bytes).`);
    } catch (e) {
      setErrors(e instanceof ApiError ? errorsByField(e, [name]) : { form: 'Could not save the file.' });
      setBusy(false);
    }
  };
  const id = `app-link-${name.replace(/\W+/g, '-')}`;
  return (
    <Modal title={`${name} of ${domain}`} onClose={() => props.onDone()}>
      <form onSubmit={submit} noValidate>
        <Field
          id={id}
          label={name}
          error={errors[name]}
          hint={`${FILES[name].kind} for ${FILES[name].platform}, at most 64 KB; served at /.well-known/${name} exactly as written.`}
        >
          {(aria) => (
            <textarea
              {...aria}
              class="app-link-text"
              name="file"
              rows={12}
              spellcheck={false}
              disabled={loading}
              value={text}
              onInput={(event) => setText((event.currentTarget as HTMLTextAreaElement).value)}
            />
          )}
        </Field>
        <Field id={`${id}-file`} label="Or read it from a file">
          {(aria) => <input {...aria} type="file" accept=".json,application/json" onChange={readFile} />}
        </Field>
        {(errors.form || errors[name]) && (
          <p class={errors.form ? 'error' : 'visually-hidden'} role="alert">
            {errors.form ?? errors[name]}
          </p>
        )}
        <DialogActions label={props.isSet ? 'Replace' : 'Upload'} busy={busy || loading} onCancel={props.onDone} />
      </form>
    </Modal>
  );
}
