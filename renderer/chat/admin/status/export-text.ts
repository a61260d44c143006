/** What the "Export for Zulip" card says: the shapes it reads and its lines of progress and consent. */
import { formatBytes } from './format.js';

/** A past export as `GET /export/realm` lists it (Zulip's shape; what the card shows). */
export interface RealmExport {
  id: number;
  export_time: number;
  export_type: number;
  pending: boolean;
  export_url: string | null;
  deleted_timestamp: number | null;
  failed_timestamp: number | null;
}

/** The running export's progress (`GET /hearth/export`: null when none runs). */
export interface ExportRun {
  id: number;
  phase: string;
  done: number;
  total: number;
  error: string | null;
}

/** Something loaded for the card: its value, or why it could not be (null: loading). */
export type Loaded<T> = { value: T } | { error: string } | null;

export type ExportProgress = Pick<ExportRun, 'phase' | 'done' | 'total'>;

export const EXPORT_PUBLIC = 1;
export const EXPORT_STANDARD = 2;

const PHASE_LABELS: Readonly<Record<string, string>> = {
  'people and channels': 'People and channels',
  messages: 'Messages',
  uploads: 'Uploads',
  'custom emoji': 'Custom emoji',
};

const count = (n: number) => n.toLocaleString('en-US');

/** Whether the bar has no measure for the phase (it moves without a value). */
export const indeterminate = (p: ExportProgress) => p.phase === 'packing' || p.phase === 'people and channels';

/** "Messages: 2,000 of 2,949"; for uploads, bytes ("Uploads: 1.5 MiB of 20.0 MiB"); the server's packing step says so. */
export function exportProgressText(p: ExportProgress): string {
  if (p.phase === 'packing') return 'Packing the archive…';
  const label = PHASE_LABELS[p.phase] ?? p.phase;
  if (p.phase === 'uploads') return `${label}: ${formatBytes(Number(p.done))} of ${formatBytes(Number(p.total))}`;
  if (p.phase === 'people and channels') return `${label}…`;
  return `${label}: ${count(Number(p.done))} of ${count(Number(p.total))}`;
}

/** "2 of 5 people allow exporting their private data; …" (GET /export/realm/consents). */
export function consentText(consents: readonly { consented: boolean }[]): string {
  const n = consents.filter((c) => c.consented).length;
  const m = consents.length;
  const allow = n === 1 ? 'allows' : 'allow';
  return `${count(n)} of ${count(m)} ${m === 1 ? 'person' : 'people'} ${allow} exporting their private data; direct messages and private channels of the others are left out`;
}

export const exportDate = (seconds: number) => new Date(seconds * 1000).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
