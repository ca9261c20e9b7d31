import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from '../api';
import { DialogActions } from './dialog-actions';
import { Modal } from './modal';

/**
 * A question before something that cannot be undone (delete a link, revoke a token): Cancel, or the danger
 * button, which runs `act`. Its message goes to `onDone`; a failure stays in the dialog, in an alert.
 */
export function ConfirmDialog(props: {
  title: string;
  /** The danger button's label. */
  action: string;
  /** Said when the failure is not the API's own error. */
  failure: string;
  /** Does it; answers what to tell the person. */
  act: () => Promise<string>;
  onDone: (message?: string) => void;
  children: ComponentChildren;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      props.onDone(await props.act());
    } catch (e) {
      setError(e instanceof ApiError ? e.message : props.failure);
      setBusy(false);
    }
  };
  return (
    <Modal title={props.title} onClose={() => props.onDone()}>
      <p>{props.children}</p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <DialogActions label={props.action} busy={busy} onCancel={props.onDone} onConfirm={confirm} />
    </Modal>
  );
}
