import { useState } from 'preact/hooks';
import { ApiError, api, type OneLink, type VisitOutcome, type VisitToTry } from '../api';
import { Field } from '../components/field';
import { fromLocalInput } from '../format';

/** A few visitors' browsers, by the user agent each sends. */
const AGENTS: ReadonlyArray<readonly [string, string]> = [
  ['Windows computer (Chrome)', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'],
  ['Mac (Safari)', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15'],
  ['Linux computer (Firefox)', 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0'],
  [
    'iPhone (Safari)',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ],
  ['iPad (Safari)', 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'],
  ['Android phone (Chrome)', 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36'],
  ['Search engine bot (Googlebot)', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
];

/** "Test a visit": a visitor made of a device, languages, a country, a query string and a time; where the server would send them. */
export function VisitTest(props: { link: OneLink }) {
  const [outcome, setOutcome] = useState<VisitOutcome | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const value = (name: string) => String(form.get(name) ?? '').trim();
    const at = value('at');
    const visit: VisitToTry = {
      userAgent: AGENTS[Number(value('device'))]?.[1] ?? AGENTS[0]![1],
      ...(value('language') !== '' && { acceptLanguage: value('language') }),
      ...(value('country') !== '' && { country: value('country').toUpperCase() }),
      ...(value('query') !== '' && { query: value('query').replace(/^\?/, '') }),
      ...(at !== '' && { at: fromLocalInput(at) }),
    };
    setBusy(true);
    setErrors({});
    setOutcome(null);
    try {
      setOutcome(await api.evaluate(props.link.domain, props.link.slug, visit));
    } catch (error) {
      const byField: Record<string, string> = {};
      if (error instanceof ApiError) {
        for (const problem of error.errors) byField[problem.field] ??= problem.message;
        if (error.errors.length === 0) byField.form = error.message;
      } else byField.form = 'Could not try the visit.';
      // The form's fields by the API's names: the language is its Accept-Language.
      if (byField.acceptLanguage) byField.language = byField.acceptLanguage;
      setErrors(byField);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card visit-test" aria-labelledby="visit-test-heading">
      <h2 id="visit-test-heading">Test a visit</h2>
      <p class="muted">Where would this visitor go? The server answers as its redirect would, without counting a visit.</p>
      <form onSubmit={submit} noValidate>
        <div class="row">
          <Field id="visit-device" label="Device">
            {(aria) => (
              <select {...aria} name="device">
                {AGENTS.map(([name], i) => (
                  <option key={name} value={i}>
                    {name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id="visit-language" label="Languages" error={errors.language} hint="As the browser says them, such as fr-CH, en;q=0.5.">
            {(aria) => <input {...aria} name="language" autoComplete="off" />}
          </Field>
          <Field id="visit-country" label="Country" error={errors.country} hint="Two letters, such as FR.">
            {(aria) => <input {...aria} name="country" autoComplete="off" maxLength={2} />}
          </Field>
          <Field id="visit-query" label="Query string" error={errors.query} hint="Such as utm_source=news&ref=x.">
            {(aria) => <input {...aria} name="query" autoComplete="off" />}
          </Field>
          <Field id="visit-at" label="Time" error={errors.at} hint="Your local time; empty for now.">
            {(aria) => <input {...aria} name="at" type="datetime-local" />}
          </Field>
        </div>
        {errors.form && (
          <p class="error" role="alert">
            {errors.form}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Trying…' : 'Try this visit'}
        </button>
      </form>
      <div role="status">
        {outcome && (
          <p class="visit-outcome">
            <strong>{outcome.rule === null ? 'No rule matches: the destination.' : `Rule ${outcome.rule + 1} matches.`}</strong>{' '}
            <span class="muted">Goes to</span> <span class="break">{outcome.url}</span>
          </p>
        )}
      </div>
    </section>
  );
}
