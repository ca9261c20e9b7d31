import { useEffect, useState } from 'preact/hooks';

/** Copies `text` with the clipboard API and says so ("Copied") where a screen reader hears it too. */
export function CopyButton(props: { text: string; label?: string; class?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span class="copy">
      <button type="button" class={props.class ?? 'secondary'} onClick={copy} aria-label={props.label}>
        Copy
      </button>
      <span class="copy-state" role="status">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy: select the link and copy it' : ''}
      </span>
    </span>
  );
}
