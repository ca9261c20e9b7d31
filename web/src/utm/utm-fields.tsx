import type { RefObject } from 'preact';
import { useLayoutEffect, useState } from 'preact/hooks';
import { Field } from '../components/field';
import { destination, hasUtm, readUtm, UTM_KEYS, type UtmKey, writeUtm } from './utm-params';

const FIELDS: Record<UtmKey, { label: string; hint: string }> = {
  utm_source: { label: 'Source', hint: 'utm_source: where visitors come from, e.g. newsletter' },
  utm_medium: { label: 'Medium', hint: 'utm_medium: e.g. email, social, cpc' },
  utm_campaign: { label: 'Campaign', hint: 'utm_campaign: e.g. spring_sale' },
  utm_term: { label: 'Term', hint: 'utm_term: the paid search keywords' },
  utm_content: { label: 'Content', hint: 'utm_content: which link or ad, e.g. header' },
};

const asTyped = (typed: string) => typed;

/**
 * A form's "UTM parameters": five fields that write into the URL field `urlInput` (the one source of truth: the
 * fields show what it holds, so editing the URL by hand updates them), and the URL the link will go to. The page
 * keeps its URL field as it was; `complete` is what the page does to the typed URL before sending it (the shorten
 * form's added `https://`). While the URL cannot be read, the fields are disabled and the URL is left alone.
 */
export function UtmFields(props: { id: string; urlInput: RefObject<HTMLInputElement | null>; complete?: (typed: string) => string }) {
  const { urlInput, complete = asTyped } = props;
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);

  useLayoutEffect(() => {
    const input = urlInput.current;
    if (!input) return;
    let had = false;
    const follow = () => {
      setText(input.value);
      // Opens by itself when the URL comes with UTM parameters (the link's own, or pasted), never closes by itself.
      const has = hasUtm(input.value);
      if (has && !had) setOpen(true);
      had = has;
    };
    follow();
    input.addEventListener('input', follow);
    return () => input.removeEventListener('input', follow);
  }, [urlInput]);

  const write = (key: UtmKey, value: string) => {
    const input = urlInput.current;
    if (!input || destination(complete(input.value)) === null) return;
    input.value = writeUtm(input.value, key, value);
    // An input event, as typing would fire: this component's own listener and anything else following the field hear it.
    input.dispatchEvent(new Event('input', { bubbles: true }));
  };

  const final = destination(complete(text));
  const values = readUtm(text);
  return (
    <details class="utm" open={open} onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}>
      <summary>UTM parameters</summary>
      {final === null && (
        <p class="hint utm-note">
          {text.trim() === ''
            ? 'Type the URL first: these fields write into it.'
            : 'The URL cannot be read as a web address (https://…) yet: fix it to add UTM parameters.'}
        </p>
      )}
      <div class="row">
        {UTM_KEYS.map((key) => (
          <Field key={key} id={`${props.id}-${key.replace('_', '-')}`} label={FIELDS[key].label} hint={FIELDS[key].hint}>
            {(aria) => (
              <input
                {...aria}
                value={values[key]}
                disabled={final === null}
                autoComplete="off"
                spellcheck={false}
                onInput={(event) => write(key, event.currentTarget.value)}
              />
            )}
          </Field>
        ))}
      </div>
      {final !== null && (
        <p class="utm-final">
          <span class="muted">Final URL </span>
          <span class="break" id={`${props.id}-utm-final`}>
            {final}
          </span>
        </p>
      )}
    </details>
  );
}
