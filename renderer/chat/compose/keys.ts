/** The message box's own keys: Zulip's formatting keys (compose-box.ts), and Enter to send. */
import { applyEdit, formatEdit, formatOfKey } from './compose-box.js';
import { store } from '../store/state.js';

/** Applies a formatting key to `box`; whether the key sends the message (the key is then taken). */
export function messageKeySends(e: KeyboardEvent, box: HTMLTextAreaElement | null): boolean {
  const format = formatOfKey(e);
  if (format && box) {
    e.preventDefault();
    applyEdit(box, formatEdit(box.value, box.selectionStart, box.selectionEnd, format));
    return false;
  }
  // Enter sends unless the person chose Ctrl+Enter (enter_sends false); Ctrl+Enter always sends.
  if (e.key === 'Enter' && !e.isComposing && (e.ctrlKey || e.metaKey || (store.userSettings.value.enter_sends !== false && !e.shiftKey))) {
    e.preventDefault();
    return true;
  }
  return false;
}
