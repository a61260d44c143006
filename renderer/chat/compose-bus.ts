/** "Quote and reply" and the like: text to insert at the compose box's cursor (Compose.tsx consumes it). */
import { signal } from '@preact/signals';

export const composeInsert = signal<{ text: string; seq: number } | null>(null);

/** Asks the compose box to insert `text` (each request numbered one past the last, whoever made it). */
export function insertIntoCompose(text: string): void {
  composeInsert.value = { text, seq: (composeInsert.peek()?.seq ?? 0) + 1 };
}

/**
 * X in a conversation's view: the compose box writes a new direct message without leaving the view
 * (as Zulip's compose box does), its own draft kept; `seq` counts the requests.
 */
export const composeElsewhere = signal(0);
