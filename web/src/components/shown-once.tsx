import type { ComponentChildren } from 'preact';
import { CopyButton } from './copy-button';
import { Modal } from './modal';

/**
 * A secret or one-time link shown this once (a new token, an invitation link, a webhook's signing secret): what it is
 * for, the value in a read-only field that selects itself, Copy and Done.
 */
export function ShownOnce(props: {
  readonly title: string;
  /** The field's id and label. */
  readonly id: string;
  readonly label: ComponentChildren;
  readonly value: string;
  readonly onDone: () => void;
  /** What it is and that it is not shown again. */
  readonly children: ComponentChildren;
}) {
  return (
    <Modal title={props.title} onClose={props.onDone}>
      {props.children}
      <div class="field">
        <label for={props.id}>{props.label}</label>
        <input id={props.id} type="text" readOnly value={props.value} spellcheck={false} onFocus={(e) => e.currentTarget.select()} />
      </div>
      <div class="dialog-actions">
        <CopyButton text={props.value} class="primary" />
        <button type="button" class="secondary" onClick={props.onDone}>
          Done
        </button>
      </div>
    </Modal>
  );
}
