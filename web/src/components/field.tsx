import type { ComponentChildren } from 'preact';

/** A labelled input with its hint and its error (in the API's words) under it, tied by aria-describedby. */
export function Field(props: {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string;
  children: (aria: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: 'true' }) => ComponentChildren;
}) {
  const described = [props.hint ? `${props.id}-hint` : '', props.error ? `${props.id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={props.error ? 'field invalid' : 'field'}>
      <label for={props.id}>{props.label}</label>
      {props.children({ id: props.id, ...(described ? { 'aria-describedby': described } : {}), ...(props.error ? { 'aria-invalid': 'true' } : {}) })}
      {props.hint && (
        <p class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.error && (
        <p class="error" id={`${props.id}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** The API's errors split by the form's fields; what names no field (or a field not in the form) goes to `form`. */
export function errorsByField(error: { message: string; errors: readonly { field: string; message: string }[] }, fields: readonly string[]) {
  const byField: Record<string, string> = {};
  for (const problem of error.errors) {
    if (fields.includes(problem.field) && byField[problem.field] === undefined) byField[problem.field] = problem.message;
  }
  if (Object.keys(byField).length === 0) byField.form = error.message;
  return byField;
}
