/**
 * The option and task numbers this page handed out per widget message (Widget.tsx): two adds
 * before the first's event comes back never share a key. Kept for the page's life, like the store.
 */
const sentIdx = new Map<number, number>();

/** The next idx for a new option or task of `messageId`: past `derived` (from its submessages) and past any handed out. */
export function takeIdx(messageId: number, derived: number): number {
  const idx = Math.max(derived, (sentIdx.get(messageId) ?? 0) + 1);
  sentIdx.set(messageId, idx);
  return idx;
}
