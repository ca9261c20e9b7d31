import { useState } from 'preact/hooks';
import { ApiError, api, type V3Domain } from '../api';
import { AppLinks } from '../components/app-links';
import { CopyButton } from '../components/copy-button';
import { DialogActions } from '../components/dialog-actions';
import { errorsByField, Field } from '../components/field';
import { Modal } from '../components/modal';
import { SettingsList, useSettingsList } from '../components/settings-list';
import { useSession } from '../session';

/**
 * Settings → Domains: the workspace's private short domains (the v3 domain API). A new one serves nothing
 * until its DNS TXT record is found (Verify); each may send its bare address and its unknown keys elsewhere, and serve
 * app links (its /.well-known/ files).
 */
export function Domains(props: { headingId: string }) {
  const { person } = useSession();
  // Adding, verifying, changing and removing domains needs an admin (a token acts as the owner).
  const role = person?.workspace.role ?? 'owner';
  const mayManage = role === 'owner' || role === 'admin';
  const list = useSettingsList(async () => (await api.shortDomains()).filter((d) => !d.isGlobal), 'Could not load the domains.');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [dialog, setDialog] = useState<{ kind: 'add' } | { kind: 'redirects'; domain: V3Domain } | null>(null);

  const close = (message?: string) => {
    setDialog(null);
    if (message) list.changed(message);
  };

  const verify = async (domain: V3Domain) => {
    setBusy(domain.domain);
    setProblems(({ [domain.domain]: _, ...rest }) => rest);
    list.setNotice('');
    try {
      await api.verifyDomain(domain.domain);
      list.changed(`${domain.domain} is verified: it serves its links now.`);
    } catch (e) {
      setProblems((all) => ({ ...all, [domain.domain]: e instanceof ApiError ? e.message : 'Could not verify the domain.' }));
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <div class="toolbar">
        <h2 id={props.headingId} class="grow">
          Domains
        </h2>
        {mayManage && (
          <button type="button" class="primary" onClick={() => setDialog({ kind: 'add' })}>
            Add domain
          </button>
        )}
      </div>
      <p class="muted">Your own short domains. Point the domain's DNS at this server, prove it is yours with a TXT record, and its links work.</p>
      <SettingsList
        list={list}
        empty="No domains of this workspace yet."
        itemKey={(domain) => domain.domain}
        cards={{
          class: 'domains',
          itemClass: 'domain',
          card: (domain, removeButton) => (
            <>
              <h3 class="break">{domain.domain}</h3>
              <p>
                <span class={domain.verified ? 'badge good' : 'badge note'}>{domain.verified ? 'Verified' : 'Not verified yet'}</span>
              </p>
              {domain.verification && <DnsRecord record={domain.verification} />}
              {problems[domain.domain] && (
                <p class="error" role="alert">
                  {problems[domain.domain]}
                </p>
              )}
              <dl class="redirects">
                <dt>Home page redirect</dt>
                <dd class="break">{domain.homePageRedirectUrl ?? <span class="muted">None</span>}</dd>
                <dt>Not-found redirect</dt>
                <dd class="break">{domain.notFoundPageRedirectUrl ?? <span class="muted">None: unknown keys show the 404 page</span>}</dd>
              </dl>
              <AppLinks domain={domain.domain} verified={domain.verified} mayManage={mayManage} reloads={list.reloads} onChanged={list.setNotice} />
              {mayManage && (
                <div class="row-actions">
                  {domain.verification && (
                    <button type="button" class="primary" disabled={busy === domain.domain} onClick={() => verify(domain)}>
                      Verify <span class="visually-hidden">{domain.domain}</span>
                    </button>
                  )}
                  <button type="button" class="secondary" onClick={() => setDialog({ kind: 'redirects', domain })}>
                    Redirects <span class="visually-hidden">of {domain.domain}</span>
                  </button>
                  {removeButton}
                </div>
              )}
            </>
          ),
        }}
        removal={
          mayManage
            ? {
                action: 'Remove',
                name: (domain) => domain.domain,
                title: 'Remove this domain?',
                failure: 'Could not remove the domain.',
                warning: (domain) => (
                  <>
                    <strong class="break">{domain.domain}</strong> stops being this workspace's. A domain that still has live links cannot be removed:
                    delete them first.
                  </>
                ),
                act: async (domain) => {
                  await api.removeDomain(domain.domain);
                  return `Removed ${domain.domain}.`;
                },
              }
            : undefined
        }
      />
      {dialog?.kind === 'add' && <AddDomainDialog onDone={close} />}
      {dialog?.kind === 'redirects' && <RedirectsDialog domain={dialog.domain} onDone={close} />}
    </>
  );
}

/** The TXT record that proves the domain is the workspace's (decision 0019), each part with Copy. */
function DnsRecord(props: { record: NonNullable<V3Domain['verification']> }) {
  const { record } = props;
  return (
    <div class="dns-record">
      <p class="dns-intro">To verify it, add this DNS record, then press Verify (DNS can take a while to spread):</p>
      <dl>
        <dt>Type</dt>
        <dd>
          <code>{record.type}</code>
        </dd>
        <dt>Name</dt>
        <dd class="break">
          <code>{record.record}</code> <CopyButton text={record.record} label={`Copy the name ${record.record}`} />
        </dd>
        <dt>Value</dt>
        <dd class="break">
          <code>{record.value}</code> <CopyButton text={record.value} label="Copy the value" />
        </dd>
      </dl>
    </div>
  );
}

function AddDomainDialog(props: { onDone: (message?: string) => void }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const domain = String(new FormData(event.currentTarget as HTMLFormElement).get('domain') ?? '').trim();
    if (domain === '') return setErrors({ domain: 'Enter a domain, such as go.example.com.' });
    setBusy(true);
    try {
      const added = await api.addDomain(domain);
      props.onDone(`Added ${added.domain}. ${added.verified ? '' : 'Add its DNS record below, then press Verify.'}`.trim());
    } catch (e) {
      setErrors(e instanceof ApiError ? errorsByField(e, ['domain']) : { form: 'Could not add the domain.' });
      setBusy(false);
    }
  };
  return (
    <Modal title="Add a domain" onClose={() => props.onDone()}>
      <form onSubmit={submit} noValidate>
        <Field id="new-domain" label="Domain" error={errors.domain} hint="A host name whose DNS points at this server, such as go.example.com.">
          {(aria) => <input {...aria} name="domain" type="text" autoComplete="off" spellcheck={false} maxLength={300} required />}
        </Field>
        {(errors.domain || errors.form) && (
          <p class={errors.form ? 'error' : 'visually-hidden'} role="alert">
            {errors.form ?? errors.domain}
          </p>
        )}
        <DialogActions label="Add" busy={busy} onCancel={props.onDone} />
      </form>
    </Modal>
  );
}

function RedirectsDialog(props: { domain: V3Domain; onDone: (message?: string) => void }) {
  const { domain } = props;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    try {
      // Empty clears a redirect: the API takes '' as none.
      await api.updateDomain(domain.domain, {
        homePageRedirectUrl: String(form.get('home') ?? '').trim(),
        notFoundPageRedirectUrl: String(form.get('notFound') ?? '').trim(),
      });
      props.onDone(`Saved the redirects of ${domain.domain}.`);
    } catch (e) {
      const byField = e instanceof ApiError ? errorsByField(e, ['homePageRedirectUrl', 'notFoundPageRedirectUrl']) : { form: 'Could not save.' };
      setErrors(byField);
      setBusy(false);
    }
  };
  const problem = errors.form ?? errors.homePageRedirectUrl ?? errors.notFoundPageRedirectUrl;
  return (
    <Modal title={`Redirects of ${domain.domain}`} onClose={() => props.onDone()}>
      <form onSubmit={submit} noValidate>
        <Field
          id="home-redirect"
          label="Home page redirect"
          error={errors.homePageRedirectUrl}
          hint="Where the bare domain (/) sends visitors. Empty: nowhere."
        >
          {(aria) => <input {...aria} name="home" type="url" defaultValue={domain.homePageRedirectUrl ?? ''} placeholder="https://example.com/" />}
        </Field>
        <Field
          id="not-found-redirect"
          label="Not-found redirect"
          error={errors.notFoundPageRedirectUrl}
          hint="Where an unknown short link on the domain sends visitors instead of the 404 page. Empty: the 404 page."
        >
          {(aria) => (
            <input {...aria} name="notFound" type="url" defaultValue={domain.notFoundPageRedirectUrl ?? ''} placeholder="https://example.com/" />
          )}
        </Field>
        {problem && (
          <p class={errors.form ? 'error' : 'visually-hidden'} role="alert">
            {problem}
          </p>
        )}
        <DialogActions label="Save" busy={busy} onCancel={props.onDone} />
      </form>
    </Modal>
  );
}
