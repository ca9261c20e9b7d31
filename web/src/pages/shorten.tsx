import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api, type Shortened } from '../api';
import { CopyButton } from '../components/copy-button';
import { errorsByField, Field } from '../components/field';
import { QrCode } from '../components/qr-code';
import { fromLocalInput } from '../format';
import { currentToken, useSignedIn } from '../session';
import { FormTags } from '../tags/form-tags';
import { tagsOfForm } from '../tags/tag-names';
import { withScheme } from '../typed-url';
import { UtmFields } from '../utm/utm-fields';

const FIELDS = ['url', 'slug', 'domain', 'comment', 'tags', 'password', 'expiredAt'] as const;
/** The fields under "More options": opened when the API names one of them. */
const MORE = new Set<string>(['password', 'expiredAt']);

/**
 * The home page: a long URL in, a short one out, with its QR code. A server with
 * `ANONYMOUS_SHORTEN=off` answers an anonymous shorten 401: the page learns it from that answer
 * (no call up front, nothing to keep in step) and asks for a token, the form kept as it was.
 */
export function ShortenPage(props: { onSignIn: () => void }) {
  const signedIn = useSignedIn();
  const [needsToken, setNeedsToken] = useState(false);
  const [domains, setDomains] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Shortened | null>(null);
  const [more, setMore] = useState(false);
  const urlInput = useRef<HTMLInputElement>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const moreOptions = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    api.domains().then(
      (page) => setDomains(page.data.map((domain) => domain.domainName)),
      () => setDomains([]),
    );
  }, [signedIn]);

  useEffect(() => {
    if (result) resultHeading.current?.focus();
  }, [result]);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const value = (name: string) => String(form.get(name) ?? '').trim();
    // "example.com/page" is sent as https://example.com/page, and the field shows what was sent.
    const url = withScheme(value('url'));
    if (urlInput.current) urlInput.current.value = url;
    const expiry = value('expiredAt');
    const tags = tagsOfForm(form, 'tags');
    if (tags.problem !== undefined) return setErrors({ tags: tags.problem });
    setBusy(true);
    setErrors({});
    try {
      setResult(
        await api.shorten({
          url,
          slug: value('slug'),
          domain: value('domain'),
          comment: value('comment'),
          password: value('password'),
          expiredAt: expiry === '' ? '' : fromLocalInput(expiry),
          tags: tags.tags,
        }),
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 401 && !currentToken()) {
        setNeedsToken(true);
        return;
      }
      const found = error instanceof ApiError ? errorsByField(error, FIELDS) : { form: 'Something went wrong. Try again.' };
      setErrors(found);
      // Focus the first field the API named, so its message is read out with it (opening "More options" if it is there).
      const first = FIELDS.find((field) => found[field]);
      if (first && MORE.has(first) && moreOptions.current) moreOptions.current.open = true;
      if (first) document.getElementById(`shorten-${first}`)?.focus();
    } finally {
      setBusy(false);
    }
  };

  const again = () => {
    setResult(null);
    setTimeout(() => urlInput.current?.focus());
  };

  if (result) {
    return (
      <section class="card result" aria-labelledby="result-heading">
        <h2 id="result-heading" ref={resultHeading} tabIndex={-1}>
          Your short link
        </h2>
        <p class="short-url">
          <a href={result.shortened} rel="noreferrer" target="_blank">
            {result.shortened}
          </a>
          <CopyButton text={result.shortened} class="primary" />
        </p>
        <p class="muted destination">
          Goes to <span class="break">{result.url}</span>
        </p>
        <QrCode shortUrl={result.shortened} name={result.slug} />
        <button type="button" class="secondary" onClick={again}>
          Shorten another
        </button>
      </section>
    );
  }

  return (
    <form class="card" onSubmit={submit} noValidate>
      <Field id="shorten-url" label="URL to shorten" error={errors.url}>
        {(aria) => (
          <input
            {...aria}
            ref={urlInput}
            name="url"
            type="url"
            inputMode="url"
            autoComplete="url"
            placeholder="https://example.com/a/long/page"
            required
          />
        )}
      </Field>
      <UtmFields id="shorten" urlInput={urlInput} complete={withScheme} />
      <div class="row">
        <Field id="shorten-domain" label="Domain" error={errors.domain}>
          {(aria) => (
            <select {...aria} name="domain">
              {domains.map((domain) => (
                <option key={domain} value={domain}>
                  {domain}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="shorten-slug" label="Custom slug (optional)" error={errors.slug} hint="Letters, digits, - and _; up to 64.">
          {(aria) => <input {...aria} name="slug" autoComplete="off" spellcheck={false} />}
        </Field>
      </div>
      <Field id="shorten-comment" label="Comment (optional)" error={errors.comment}>
        {(aria) => <input {...aria} name="comment" autoComplete="off" />}
      </Field>
      {signedIn && <FormTags id="shorten-tags" name="tags" initial={[]} error={errors.tags} />}
      <details class="more" ref={moreOptions} open={more} onToggle={(event) => setMore((event.currentTarget as HTMLDetailsElement).open)}>
        <summary>More options</summary>
        <div class="row">
          <Field id="shorten-password" label="Password" error={errors.password} hint="Visitors must enter it; at least 6 characters.">
            {(aria) => <input {...aria} name="password" type="password" autoComplete="new-password" />}
          </Field>
          <Field id="shorten-expiredAt" label="Expires" error={errors.expiredAt} hint="Your local time; after it the link stops working.">
            {(aria) => <input {...aria} name="expiredAt" type="datetime-local" />}
          </Field>
        </div>
      </details>
      {needsToken && !signedIn && (
        <div class="needs-token" role="alert">
          <p>This server needs an API token to shorten links. Sign in with yours, then shorten.</p>
          <button type="button" class="secondary" onClick={props.onSignIn}>
            Sign in
          </button>
        </div>
      )}
      {errors.form && (
        <p class="error" role="alert">
          {errors.form}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Shortening…' : 'Shorten'}
      </button>
      {!signedIn && !needsToken && <p class="muted">Anonymous links cannot be edited later. Sign in with an API token to keep them in My links.</p>}
    </form>
  );
}
