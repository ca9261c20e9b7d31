import { Field } from '../components/field';
import { fromLocalInput, toLocalInput } from '../format';
import { CONDITION_TYPES, type ConditionDraft, type ConditionType, DEVICES, KEYED, TYPE_NAMES, VALUELESS, WEEKDAYS } from './rule-words';

/** The visitor's own time zone, offered for a new weekday or hours condition. */
const ownZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'Etc/UTC';

const HOURS = Array.from({ length: 25 }, (_, hour) => String(hour).padStart(2, '0'));

/** What a text value asks for, by type (its hint). */
const TEXT_HINTS: Partial<Record<ConditionType, string>> = {
  language: 'A language tag such as en or pt-BR; en also matches en-GB.',
  country: 'Two letters (ISO 3166-1), such as FR.',
  region: 'As the city database names it.',
  city: 'As the city database names it.',
  browser: 'Such as chrome, firefox, safari or edge.',
  os: 'Such as windows, macos, ios, android or linux.',
  query: 'Empty matches ?name= with nothing after it.',
  referrer: 'A host such as example.com; its subdomains match too.',
  ip: 'An address or a range, such as 203.0.113.0/24 or 2001:db8::/32.',
};

/**
 * One condition's controls: its type, then a key and a value of the right kind for it. `errors` are the API's,
 * by its field names; `at` is the condition's path (`rules.2.conditions.0`).
 */
export function ConditionFields(props: {
  condition: ConditionDraft;
  label: string;
  at: string;
  errors: Record<string, string>;
  onChange: (condition: ConditionDraft) => void;
  onRemove?: () => void;
}) {
  const { condition, errors, at } = props;
  const id = `condition-${condition.id}`;
  const set = (change: Partial<ConditionDraft>) => props.onChange({ ...condition, ...change });
  const changeType = (type: ConditionType) => {
    const zone = KEYED[type] === 'zone' ? (KEYED[condition.type] === 'zone' ? condition.key : ownZone()) : '';
    set({ type, key: zone, value: type === 'device' ? 'mobile' : type === 'hours' ? '09-17' : type === 'weekday' ? 'mon,tue,wed,thu,fri' : '' });
  };
  const keyKind = KEYED[condition.type];
  return (
    <fieldset class="condition">
      <legend>{props.label}</legend>
      <div class="row">
        <Field id={`${id}-type`} label="Type" error={errors[`${at}.type`]}>
          {(aria) => (
            <select {...aria} value={condition.type} onChange={(e) => changeType(e.currentTarget.value as ConditionType)}>
              {CONDITION_TYPES.map((type) => (
                <option key={type} value={type}>
                  {TYPE_NAMES[type]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {keyKind && (
          <Field
            id={`${id}-key`}
            label={keyKind === 'zone' ? 'Time zone' : 'Parameter'}
            error={errors[`${at}.key`]}
            {...(keyKind === 'zone' && { hint: 'An IANA zone, such as Europe/Paris.' })}
          >
            {(aria) => <input {...aria} value={condition.key} autoComplete="off" onInput={(e) => set({ key: e.currentTarget.value })} />}
          </Field>
        )}
        {!VALUELESS.has(condition.type) && <ValueField {...props} id={`${id}-value`} error={errors[`${at}.value`]} set={set} />}
      </div>
      {props.onRemove && (
        <button type="button" class="secondary" onClick={props.onRemove}>
          Remove {props.label.toLowerCase()}
        </button>
      )}
    </fieldset>
  );
}

function ValueField(props: { condition: ConditionDraft; id: string; error: string | undefined; set: (change: Partial<ConditionDraft>) => void }) {
  const { condition, id, error, set } = props;
  const value = condition.value;
  switch (condition.type) {
    case 'device':
      return (
        <Field id={id} label="Device" error={error}>
          {(aria) => (
            <select {...aria} value={value} onChange={(e) => set({ value: e.currentTarget.value })}>
              {value === '' && <option value="">Choose a device</option>}
              {DEVICES.map(([tag, name]) => (
                <option key={tag} value={tag}>
                  {name}
                </option>
              ))}
            </select>
          )}
        </Field>
      );
    case 'before':
    case 'after':
      return (
        <Field id={id} label={condition.type === 'before' ? 'Before' : 'From'} error={error} hint="Your local time.">
          {(aria) => (
            <input
              {...aria}
              type="datetime-local"
              value={value === '' || Number.isNaN(Date.parse(value)) ? '' : toLocalInput(value)}
              onInput={(e) => set({ value: e.currentTarget.value === '' ? '' : fromLocalInput(e.currentTarget.value) })}
            />
          )}
        </Field>
      );
    case 'weekday': {
      const days = new Set(value.split(',').filter(Boolean));
      const toggle = (day: string, on: boolean) => {
        if (on) days.add(day);
        else days.delete(day);
        set({
          value: WEEKDAYS.map(([d]) => d)
            .filter((d) => days.has(d))
            .join(','),
        });
      };
      return (
        <fieldset class={error ? 'days invalid' : 'days'} aria-describedby={error ? `${id}-error` : undefined}>
          <legend>Days</legend>
          {WEEKDAYS.map(([day, name]) => (
            <span class="check" key={day}>
              <input id={`${id}-${day}`} type="checkbox" checked={days.has(day)} onChange={(e) => toggle(day, e.currentTarget.checked)} />
              <label for={`${id}-${day}`}>{name}</label>
            </span>
          ))}
          {error && (
            <p class="error" id={`${id}-error`}>
              {error}
            </p>
          )}
        </fieldset>
      );
    }
    case 'hours': {
      const [from = '09', to = '17'] = value.split('-');
      return (
        <fieldset class={error ? 'hours invalid' : 'hours'} aria-describedby={error ? `${id}-error` : undefined}>
          <legend>Hours (from, until before)</legend>
          <label for={`${id}-from`}>From</label>
          <select id={`${id}-from`} class="compact" value={from} onChange={(e) => set({ value: `${e.currentTarget.value}-${to}` })}>
            {HOURS.slice(0, 24).map((hour) => (
              <option key={hour} value={hour}>{`${hour}:00`}</option>
            ))}
          </select>
          <label for={`${id}-to`}>Until</label>
          <select id={`${id}-to`} class="compact" value={to} onChange={(e) => set({ value: `${from}-${e.currentTarget.value}` })}>
            {HOURS.slice(1).map((hour) => (
              <option key={hour} value={hour}>{`${hour}:00`}</option>
            ))}
          </select>
          {error && (
            <p class="error" id={`${id}-error`}>
              {error}
            </p>
          )}
        </fieldset>
      );
    }
    default: {
      const hint = TEXT_HINTS[condition.type];
      return (
        <Field id={id} label="Value" error={error} {...(hint && { hint })}>
          {(aria) => <input {...aria} value={value} autoComplete="off" onInput={(e) => set({ value: e.currentTarget.value })} />}
        </Field>
      );
    }
  }
}
