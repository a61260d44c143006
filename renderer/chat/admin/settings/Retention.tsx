/**
 * The organization card's message retention (Zulip's `message_retention_days`: "unlimited" keeps
 * forever): keep forever or delete messages older than a number of days. Before a shorter period
 * is saved the card shows what it would delete (`GET /hearth/retention/preview`, the dry run of
 * the daily pass), and saving it asks for a confirmation naming those counts. Only owners change it.
 */
import { useEffect, useId, useState } from 'preact/hooks';
import { get } from '../api.js';

/** As the form holds it: kept forever, or days as typed. */
export interface RetentionValue {
  forever: boolean;
  days: string;
}

/** The dry run's answer. */
export interface RetentionPreview {
  messages: number;
  direct_messages: number;
  attachments: number;
}

export const retentionOf = (days: number | undefined): RetentionValue =>
  days === undefined || days === -1 ? { forever: true, days: '' } : { forever: false, days: String(days) };

/** What `PATCH /realm` gets: "unlimited", a positive number of days, or null when what is typed is not one. */
export function retentionParam(v: RetentionValue): 'unlimited' | number | null {
  if (v.forever) return 'unlimited';
  const n = Number(v.days);
  return v.days.trim() !== '' && Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** Whether going from `before` to `after` deletes sooner (forever to a period, or fewer days). */
export function isShorter(before: RetentionValue, after: RetentionValue): boolean {
  const b = retentionParam(before);
  const a = retentionParam(after);
  if (typeof a !== 'number') return false;
  return b === 'unlimited' || (typeof b === 'number' && a < b);
}

export const fetchPreview = (days: number) => get<RetentionPreview>('/hearth/retention/preview', { days });

/** "1,234 messages (5 direct) and 2 files". */
export function previewText(p: RetentionPreview): string {
  const n = (x: number, one: string, many: string) => `${x.toLocaleString('en')} ${x === 1 ? one : many}`;
  const direct = p.direct_messages ? ` (${n(p.direct_messages, 'direct message', 'direct messages')} among them)` : '';
  return `${n(p.messages, 'message', 'messages')}${direct} and ${n(p.attachments, 'file', 'files')}`;
}

export function RetentionField({ value, saved, canEdit, onChange }: { value: RetentionValue; saved: RetentionValue; canEdit: boolean; onChange: (v: RetentionValue) => void }) {
  const id = useId();
  const [preview, setPreview] = useState<{ days: number; text: string } | null>(null);
  const days = retentionParam(value);
  const shorter = isShorter(saved, value);
  // The dry run follows what is typed (a moment after the last key).
  useEffect(() => {
    if (!shorter || typeof days !== 'number') {
      setPreview(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      fetchPreview(days).then(
        (p) => live && setPreview({ days, text: `Saving this deletes ${previewText(p)} older than ${days} days (within a day).` }),
        () => live && setPreview({ days, text: 'What this would delete could not be counted.' }),
      );
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [shorter, days]);
  return (
    <fieldset class="field retention" disabled={!canEdit}>
      <legend>Message retention</legend>
      <div class="field check">
        <input type="radio" id={`${id}-forever`} name="retention" checked={value.forever} onChange={() => onChange({ ...value, forever: true })} />
        <label for={`${id}-forever`}>Keep messages forever</label>
      </div>
      <div class="field check">
        <input type="radio" id={`${id}-days`} name="retention" checked={!value.forever} onChange={() => onChange({ ...value, forever: false })} />
        <label for={`${id}-days`}>Delete messages older than</label>
        <input
          type="number"
          name="message_retention_days"
          aria-label="Days to keep messages"
          min={1}
          step={1}
          value={value.days}
          disabled={value.forever || !canEdit}
          onInput={(e) => onChange({ forever: false, days: e.currentTarget.value })}
        />
        <span>days</span>
      </div>
      <small class="hint">
        {canEdit
          ? 'Channels with a period of their own keep it. Old messages and the files only they link are deleted once a day, for good.'
          : 'Only organization owners can change this.'}
      </small>
      {shorter && preview?.days === days && (
        <p class="notice notice-info retention-preview" role="status">
          {preview.text}
        </p>
      )}
    </fieldset>
  );
}
