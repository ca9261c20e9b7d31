import { Field } from '../components/field';
import { MAX_TARGETS, type RuleDraft } from './rule-words';

/** An A/B split's targets and their weights (whole percentages summing to 100). */
export function SplitFields(props: { rule: RuleDraft; at: string; errors: Record<string, string>; set: (change: Partial<RuleDraft>) => void }) {
  const { rule, at, errors, set } = props;
  const change = (j: number, target: Partial<RuleDraft['split'][number]>) =>
    set({ split: rule.split.map((t, k) => (k === j ? { ...t, ...target } : t)) });
  return (
    <fieldset class="split">
      <legend>A/B split (weights in %, summing to 100)</legend>
      {errors[`${at}.split`] && <p class="error">{errors[`${at}.split`]}</p>}
      {rule.split.map((target, j) => (
        <div class="row" key={j}>
          <Field id={`rule-${rule.id}-split-${j}-url`} label={`Target ${j + 1}`} error={errors[`${at}.split.${j}.url`]}>
            {(aria) => <input {...aria} type="url" value={target.url} onInput={(e) => change(j, { url: e.currentTarget.value })} />}
          </Field>
          <Field id={`rule-${rule.id}-split-${j}-weight`} label={`Weight ${j + 1}`} error={errors[`${at}.split.${j}.weight`]}>
            {(aria) => (
              <input
                {...aria}
                type="number"
                min={1}
                max={100}
                step={1}
                value={target.weight}
                onInput={(e) => change(j, { weight: e.currentTarget.value })}
              />
            )}
          </Field>
          {rule.split.length > 2 && (
            <button type="button" class="secondary" onClick={() => set({ split: rule.split.filter((_, k) => k !== j) })}>
              Remove target {j + 1}
            </button>
          )}
        </div>
      ))}
      {rule.split.length < MAX_TARGETS && (
        <button type="button" class="secondary" onClick={() => set({ split: [...rule.split, { url: '', weight: '' }] })}>
          Add a target
        </button>
      )}
      <button type="button" class="link-button" onClick={() => set({ kind: 'url', url: rule.split[0]?.url ?? '', split: [] })}>
        Use one target instead
      </button>
    </fieldset>
  );
}
