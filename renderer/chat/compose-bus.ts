/** "Quote and reply" and the like: text to insert at the compose box's cursor (Compose.tsx consumes it). */
import { signal } from '@preact/signals';

export const composeInsert = signal<{ text: string; seq: number } | null>(null);
