import { useLayoutEffect, useState } from 'preact/hooks';
import { ApiError, api, type OneLink } from '../api';
import { Field } from '../components/field';
import { formatDateTime } from '../format';
import { ConditionFields } from './condition-fields';
import { conditionWords, fromDraft, MAX_CONDITIONS, MAX_RULES, moved, newCondition, newRule, type Rule, type RuleDraft, toDraft } from './rule-words';
import { SplitFields } from './split-fields';

/** The API's fields this form shows an error at; any other goes above the Save button. */
const PLACED = /^rules\.\d+\.(url|split(\.\d+\.(url|weight))?|conditions(\.\d+\.(type|key|value))?)$/;

/** A link's redirect rules, in order, in words; with `editable`, the form that adds, edits, moves and removes them (one PATCH). */
export function RulesSection(props: { link: OneLink; editable: boolean; onSaved: (link: OneLink) => void }) {
  const { link } = props;
  const [drafts, setDrafts] = useState<RuleDraft[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  return (
    <section class="card rules" aria-labelledby="rules-heading">
      <div class="toolbar">
        <h2 id="rules-heading">Redirect rules</h2>
        {props.editable && drafts === null && (
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setMessage(null);
              setDrafts(link.rules.map(toDraft));
            }}
          >
            Edit rules
          </button>
        )}
      </div>
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      {drafts === null ? (
        <RuleList rules={link.rules} />
      ) : (
        <RulesForm
          link={link}
          drafts={drafts}
          onChange={setDrafts}
          onDone={(saved) => {
            setDrafts(null);
            if (saved) {
              setMessage('Saved the rules.');
              props.onSaved(saved);
            }
          }}
        />
      )}
    </section>
  );
}

function RuleList(props: { rules: readonly Rule[] }) {
  if (props.rules.length === 0) return <p class="muted">No rules: every visitor goes to the destination.</p>;
  return (
    <>
      <p class="muted">The first rule whose conditions all match sends the visitor to its target; none matching, the destination.</p>
      <ol class="rule-list">
        {props.rules.map((rule, i) => (
          <li key={i}>
            <span class="muted">If </span>
            {rule.conditions.map((c) => conditionWords(c, formatDateTime)).join(' and ')}
            <span class="muted"> → </span>
            {rule.split === undefined ? (
              <span class="break">{rule.url}</span>
            ) : (
              <span>
                A/B split:{' '}
                {rule.split.map((target, j) => (
                  <span class="break" key={j}>
                    {j > 0 && ', '}
                    {target.weight}% {target.url}
                  </span>
                ))}
              </span>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}

function RulesForm(props: { link: OneLink; drafts: RuleDraft[]; onChange: (drafts: RuleDraft[]) => void; onDone: (saved?: OneLink) => void }) {
  const { drafts } = props;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // After a move, the focus stays on the moved rule's button (or its other one, at an end of the list).
  const [focus, setFocus] = useState<string | null>(null);
  useLayoutEffect(() => {
    if (focus === null) return;
    const button = document.getElementById(focus) as HTMLButtonElement | null;
    const other = document.getElementById(focus.endsWith('-up') ? focus.replace(/-up$/, '-down') : focus.replace(/-down$/, '-up'));
    (button && !button.disabled ? button : other)?.focus();
    setFocus(null);
  }, [focus]);

  // A change to a rule takes its errors away: they were about what it held.
  const update = (i: number, rule: RuleDraft) => {
    props.onChange(drafts.map((r, j) => (j === i ? rule : r)));
    setErrors((all) => Object.fromEntries(Object.entries(all).filter(([field]) => !field.startsWith(`rules.${i}.`))));
  };
  const move = (i: number, by: -1 | 1) => {
    props.onChange(moved(drafts, i, by));
    setErrors({});
    setFocus(`rule-${drafts[i]!.id}-${by === -1 ? 'up' : 'down'}`);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setFormError(null);
    try {
      props.onDone(await api.edit(props.link.domain, props.link.slug, { rules: drafts.map(fromDraft) }));
    } catch (error) {
      const byField: Record<string, string> = {};
      const elsewhere: string[] = [];
      if (error instanceof ApiError) {
        for (const problem of error.errors) {
          // At its field, a message need not name the field again.
          if (PLACED.test(problem.field)) byField[problem.field] ??= problem.message.replace(/^The \S+ field is invalid: /, '');
          else elsewhere.push(problem.message);
        }
        if (error.errors.length === 0) elsewhere.push(error.message);
      } else elsewhere.push('Could not save the rules.');
      setErrors(byField);
      setFormError(elsewhere.length > 0 ? elsewhere.join(' ') : 'Some rules need a change: the fields marked above say what.');
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate class="rules-form">
      {drafts.length === 0 && <p class="muted">No rules: every visitor goes to the destination.</p>}
      <ol class="rule-drafts">
        {drafts.map((rule, i) => (
          <li key={rule.id}>
            <RuleFields
              rule={rule}
              index={i}
              count={drafts.length}
              errors={errors}
              onChange={(r) => update(i, r)}
              onMove={(by) => move(i, by)}
              onRemove={() => {
                props.onChange(drafts.filter((_, j) => j !== i));
                setErrors({});
              }}
            />
          </li>
        ))}
      </ol>
      {drafts.length < MAX_RULES && (
        <button type="button" class="secondary" onClick={() => props.onChange([...drafts, newRule()])}>
          Add a rule
        </button>
      )}
      {formError && (
        <p class="error" role="alert">
          {formError}
        </p>
      )}
      <div class="dialog-actions">
        <button type="button" class="secondary" onClick={() => props.onDone()}>
          Cancel
        </button>
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save rules'}
        </button>
      </div>
    </form>
  );
}

function RuleFields(props: {
  rule: RuleDraft;
  index: number;
  count: number;
  errors: Record<string, string>;
  onChange: (rule: RuleDraft) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { rule, index, errors } = props;
  const at = `rules.${index}`;
  const name = `Rule ${index + 1}`;
  const set = (change: Partial<RuleDraft>) => props.onChange({ ...rule, ...change });
  const toSplit = () =>
    set({
      kind: 'split',
      split:
        rule.split.length >= 2
          ? rule.split
          : [
              { url: rule.url, weight: '50' },
              { url: '', weight: '50' },
            ],
    });
  return (
    <fieldset class="rule">
      <legend>{name}</legend>
      <div class="row-actions">
        <button type="button" class="secondary" id={`rule-${rule.id}-up`} disabled={index === 0} onClick={() => props.onMove(-1)}>
          Move up<span class="visually-hidden"> (rule {index + 1})</span>
        </button>
        <button type="button" class="secondary" id={`rule-${rule.id}-down`} disabled={index === props.count - 1} onClick={() => props.onMove(1)}>
          Move down<span class="visually-hidden"> (rule {index + 1})</span>
        </button>
        <button type="button" class="danger" onClick={props.onRemove}>
          Remove rule {index + 1}
        </button>
      </div>
      {rule.conditions.map((condition, j) => (
        <ConditionFields
          key={condition.id}
          condition={condition}
          label={`Condition ${j + 1}`}
          at={`${at}.conditions.${j}`}
          errors={errors}
          onChange={(c) => set({ conditions: rule.conditions.map((d, k) => (k === j ? c : d)) })}
          {...(rule.conditions.length > 1 && { onRemove: () => set({ conditions: rule.conditions.filter((_, k) => k !== j) }) })}
        />
      ))}
      {errors[`${at}.conditions`] && <p class="error">{errors[`${at}.conditions`]}</p>}
      {rule.conditions.length < MAX_CONDITIONS && (
        <button type="button" class="secondary" onClick={() => set({ conditions: [...rule.conditions, newCondition()] })}>
          Add a condition to rule {index + 1}
        </button>
      )}
      {rule.kind === 'url' ? (
        <>
          <Field
            id={`rule-${rule.id}-url`}
            label={`Rule ${index + 1} target`}
            error={errors[`${at}.url`]}
            hint="Where a visitor who matches every condition goes."
          >
            {(aria) => <input {...aria} type="url" value={rule.url} onInput={(e) => set({ url: e.currentTarget.value })} />}
          </Field>
          <button type="button" class="link-button" onClick={toSplit}>
            Split rule {index + 1}'s visitors between targets (A/B)
          </button>
        </>
      ) : (
        <SplitFields rule={rule} at={at} errors={errors} set={set} />
      )}
    </fieldset>
  );
}
