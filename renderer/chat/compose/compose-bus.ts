/** "Quote and reply" and the like: text to insert at the compose box's cursor (Compose.tsx consumes it). */
import { signal } from '@preact/signals';

export const composeInsert = signal<{ text: string; seq: number } | null>(null);
/** The newest insert a compose box took, so a remounted box does not insert it again. */
const insertTaken = signal(0);

/** Asks the compose box to insert `text` (each request numbered one past the last, whoever made it). */
export function insertIntoCompose(text: string): void {
  composeInsert.value = { text, seq: (composeInsert.peek()?.seq ?? 0) + 1 };
}

/**
 * X in a conversation's view: the compose box writes a new direct message without leaving the view
 * (as Zulip's compose box does), its own draft kept; `seq` counts the requests.
 */
export const composeElsewhere = signal(0);
/** Likewise the newest `composeElsewhere` request a compose box took. */
const elsewhereTaken = signal(0);

/** The text of an insert request no compose box has taken yet (taking it), else null. */
export function takeInsert(wanted: { text: string; seq: number } | null): string | null {
  if (!wanted || wanted.seq <= insertTaken.peek()) return null;
  insertTaken.value = wanted.seq;
  return wanted.text;
}

/** Whether `seq` is an X request no compose box has taken yet (taking it). */
export function takeElsewhere(seq: number): boolean {
  if (seq <= elsewhereTaken.peek()) return false;
  elsewhereTaken.value = seq;
  return true;
}
