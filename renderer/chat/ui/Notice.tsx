/**
 * One line that says how an action went, for one form or section: an error is an alert, anything
 * else a polite status. `useNotice` holds it; `useBusy` (./busy.ts) fills it when an action fails.
 */
import { useState } from 'preact/hooks';

export interface NoticeState {
  kind: 'error' | 'ok' | 'info';
  text: string;
}

export type SetNotice = (n: NoticeState | null) => void;

export const useNotice = () => useState<NoticeState | null>(null);

export function Notice({ notice }: { notice: NoticeState | null }) {
  if (!notice) return null;
  return (
    <p class={`notice notice-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'} aria-live={notice.kind === 'error' ? undefined : 'polite'}>
      {notice.text}
    </p>
  );
}

/** What an error says to a person. */
export const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
