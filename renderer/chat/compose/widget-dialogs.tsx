/**
 * Compose's "Poll" and "To-do list" buttons' dialogs (WidgetDialogs.tsx): a poll or to-do list is a
 * message of its own (the server reads `/poll` at its start), so the box must be empty; what the
 * dialog makes goes into the box, ready to send, as Zulip's dialogs do.
 */
import { useRef, useState } from 'preact/hooks';
import { PollDialog, TodoDialog } from '../widgets/WidgetDialogs.js';

export type WidgetKind = 'poll' | 'todo';

interface Handlers {
  /** The box's text now (a dialog opens only on an empty box). */
  text: string;
  onError: (text: string) => void;
  /** The dialog opens: compose leaves its preview. */
  onOpen: () => void;
  /** The dialog's message text, to put in the box. */
  onText: (content: string) => void;
}

export function useWidgetDialog({ text, onError, onOpen, onText }: Handlers) {
  // The dialog open, and the button to return to when it closes.
  const [open, setOpen] = useState<WidgetKind | null>(null);
  const button = useRef<HTMLButtonElement | null>(null);

  function openDialog(kind: WidgetKind, from: HTMLButtonElement) {
    if (text.trim()) {
      onError(`${kind === 'poll' ? 'A poll' : 'A to-do list'} is a message of its own: send or clear what is in the message box first.`);
      return;
    }
    onError('');
    onOpen();
    button.current = from;
    setOpen(kind);
  }

  function close(content?: string) {
    setOpen(null);
    if (content === undefined) return void setTimeout(() => button.current?.focus());
    onText(content);
  }

  const dialog =
    open === 'poll' ? <PollDialog onDone={close} onClose={() => close()} /> : open === 'todo' ? <TodoDialog onDone={close} onClose={() => close()} /> : null;
  return { openDialog, dialog };
}
