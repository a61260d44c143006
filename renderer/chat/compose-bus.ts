/** "Quote and reply" and the like: text to insert at the compose box's cursor (Compose.tsx consumes it). */
import { signal } from '@preact/signals';

export const composeInsert = signal<{ text: string; seq: number } | null>(null);

/**
 * X in a conversation's view: the compose box writes a new direct message without leaving the view
 * (as Zulip's compose box does), its own draft kept; `seq` counts the requests.
 */
export const composeElsewhere = signal(0);
