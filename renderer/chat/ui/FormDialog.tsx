/**
 * A modal dialog holding one form (Dialog.tsx's `Modal`): the fields, a notice line, the submit
 * button and Cancel. `onSubmit` runs busy; answering false (or failing) keeps the dialog open.
 */
import type { ComponentChildren } from 'preact';
import { Modal } from './Dialog.js';
import { BusyButton } from './BusyButton.js';
import { useBusy } from './busy.js';
import { Notice, type SetNotice, useNotice } from './Notice.js';

export function FormDialog({
  title,
  submit,
  onSubmit,
  onClose,
  cancel = true,
  children,
}: {
  title: string;
  submit: string;
  onSubmit: (setNotice: SetNotice) => Promise<boolean>;
  onClose: () => void;
  cancel?: boolean;
  children: ComponentChildren;
}) {
  const [notice, setNotice] = useNotice();
  const [busy, run] = useBusy(setNotice);
  return (
    <Modal title={title} onClose={onClose}>
      <form
        class="dialog-form"
        aria-busy={busy ? 'true' : undefined}
        onSubmit={(e) => {
          e.preventDefault();
          setNotice(null);
          void run(async () => {
            if (await onSubmit(setNotice)) onClose();
          });
        }}
      >
        {children}
        <Notice notice={notice} />
        <div class="actions">
          <BusyButton type="submit" busy={busy}>
            {submit}
          </BusyButton>
          {cancel && (
            <button type="button" class="secondary" onClick={onClose}>
              Cancel
            </button>
          )}
        </div>
      </form>
    </Modal>
  );
}
