import { useState } from 'preact/hooks';
import type { Tag } from '../api';
import { Field } from '../components/field';
import { TagLabel } from './tag-chips';
import { addNames, hasName, MAX_TAGS, suggestions } from './tag-names';
import './tags.css';

/**
 * Tags as chips with a text box to add more: an ARIA 1.2 combobox (list autocomplete, no automatic selection) that
 * suggests the workspace's tags as a name is typed. Enter or a comma adds what is typed (or the suggestion chosen
 * with the arrows), Backspace in an empty box takes off the last chip, each chip's × takes it off.
 *
 * Controlled (`tags`, `onChange`). In a form, a hidden input `name` holds the chips as JSON and the box itself is
 * `${name}Typed`, so the form reads both on submit, a name typed and not yet added included (tagsOfForm, tag-names.ts).
 * `onlyKnown`: only the workspace's tags can be added (a filter's), a name no tag has is refused with a message.
 */
export function TagEditor(props: {
  id: string;
  label: string;
  hint?: string;
  /** The server's message about the field. */
  error?: string | undefined;
  tags: readonly string[];
  onChange: (tags: string[]) => void;
  known: readonly Tag[];
  name?: string;
  onlyKnown?: boolean;
}) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const knownNames = props.known.map((tag) => tag.name);
  const colors = new Map(props.known.map((tag) => [tag.name.toLowerCase(), tag.color]));
  const options = open ? suggestions(knownNames, text, props.tags) : [];
  const listId = `${props.id}-suggestions`;
  const optionId = (index: number) => `${props.id}-option-${index}`;

  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  /** Adds the names in `typed`; answers whether they were added (the box is then emptied). */
  const add = (typed: string): boolean => {
    const unknown = props.onlyKnown ? typed.split(',').find((name) => name.trim() !== '' && !hasName(knownNames, name.trim())) : undefined;
    const added =
      unknown !== undefined ? { tags: [...props.tags], problem: `No tag is called “${unknown.trim()}”.` } : addNames(props.tags, typed, knownNames);
    setProblem(added.problem);
    if (added.problem !== undefined) return false;
    if (added.tags.length !== props.tags.length) props.onChange(added.tags);
    return true;
  };
  const remove = (name: string) => {
    setProblem(undefined);
    props.onChange(props.tags.filter((tag) => tag !== name));
  };

  const onInput = (event: Event) => {
    const value = (event.currentTarget as HTMLInputElement).value;
    setProblem(undefined);
    setActive(-1);
    // A comma typed or pasted ends a name: what is before the last one is added, what follows stays in the box.
    const last = value.lastIndexOf(',');
    if (last >= 0 && add(value.slice(0, last))) {
      setText(value.slice(last + 1));
    } else {
      setText(value);
    }
    // Suggestions while something is typed (ArrowDown lists them all in an empty box).
    setOpen(value.slice(last + 1).trim() !== '');
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const all = suggestions(knownNames, text, props.tags);
      if (!open) {
        setOpen(true);
        setActive(event.key === 'ArrowDown' ? 0 : all.length - 1);
      } else if (all.length > 0) {
        setActive((current) => (event.key === 'ArrowDown' ? (current + 1) % all.length : current <= 0 ? all.length - 1 : current - 1));
      }
    } else if (event.key === 'Enter') {
      const chosen = active >= 0 ? options[active] : undefined;
      // An empty box and no suggestion chosen: Enter does what it does in the form (submits it).
      if (chosen === undefined && text.trim() === '') return;
      event.preventDefault();
      if (add(chosen ?? text)) {
        setText('');
        close();
      }
    } else if (event.key === 'Escape' && open) {
      // Closes the suggestions only, not the dialog the form may be in.
      event.preventDefault();
      event.stopPropagation();
      close();
    } else if (event.key === 'Backspace' && text === '' && props.tags.length > 0) {
      event.preventDefault();
      remove(props.tags[props.tags.length - 1]!);
    }
  };

  const pick = (name: string) => {
    if (add(name)) setText('');
    close();
    document.getElementById(props.id)?.focus();
  };

  const hint = props.hint ?? `Enter or a comma adds a tag; up to ${MAX_TAGS}.`;
  return (
    <Field id={props.id} label={props.label} hint={hint} error={problem ?? props.error}>
      {(aria) => (
        <div class="tag-editor">
          {props.tags.length > 0 && (
            <ul class="tag-chips" aria-label={props.label}>
              {props.tags.map((name) => (
                <li key={name} class="tag-chip">
                  <TagLabel name={name} color={colors.get(name.toLowerCase())} />
                  <button type="button" class="tag-remove" aria-label={`Remove ${name}`} onClick={() => remove(name)}>
                    ×
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div class="tag-combo">
            <input
              {...aria}
              name={props.name && `${props.name}Typed`}
              role="combobox"
              aria-autocomplete="list"
              aria-expanded={options.length > 0 ? 'true' : 'false'}
              aria-controls={listId}
              aria-activedescendant={active >= 0 && active < options.length ? optionId(active) : undefined}
              value={text}
              autoComplete="off"
              spellcheck={false}
              onInput={onInput}
              onKeyDown={onKeyDown}
              onBlur={close}
            />
            {/* Options are picked from the box's keys (aria-activedescendant: the focus stays in the box) or the pointer. */}
            <div
              id={listId}
              role="listbox"
              aria-label={`Tags to add to ${props.label.toLowerCase()}`}
              class="tag-suggestions"
              hidden={options.length === 0}
            >
              {options.map((name, index) => (
                <div
                  key={name}
                  id={optionId(index)}
                  role="option"
                  tabIndex={-1}
                  aria-selected={index === active ? 'true' : 'false'}
                  // On the press, not the click: the focus stays in the box (a click would blur it, closing the list first).
                  onMouseDown={(event) => {
                    event.preventDefault();
                    pick(name);
                  }}
                >
                  <TagLabel name={name} color={colors.get(name.toLowerCase())} />
                </div>
              ))}
            </div>
          </div>
          {props.name && <input type="hidden" name={props.name} value={JSON.stringify(props.tags)} />}
        </div>
      )}
    </Field>
  );
}
