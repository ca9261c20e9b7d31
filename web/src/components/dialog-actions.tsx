/**
 * The row at the foot of a dialog: Cancel, then the button that does the thing, disabled while it is `busy`.
 * That button submits the dialog's form; given `onConfirm` instead, it is a danger button that runs it, for a
 * question with no form (see ConfirmDialog).
 */
export function DialogActions(props: { label: string; busy: boolean; onCancel: () => void; onConfirm?: () => void }) {
  return (
    <div class="dialog-actions">
      <button type="button" class="secondary" onClick={() => props.onCancel()}>
        Cancel
      </button>
      {props.onConfirm ? (
        <button type="button" class="danger" disabled={props.busy} onClick={props.onConfirm}>
          {props.label}
        </button>
      ) : (
        <button type="submit" class="primary" disabled={props.busy}>
          {props.label}
        </button>
      )}
    </div>
  );
}
