/** The "Export for Zulip" card's list of past exports, newest first: Download and Delete for each file. */
import { useRef, useState } from 'preact/hooks';
import { errorText, type SetNotice } from '../../ui/Notice.js';
import { del } from '../api.js';
import { EXPORT_PUBLIC, exportDate, type Loaded, type RealmExport } from './export-text.js';

function ExportState({ e, date, deleting, remove }: { e: RealmExport; date: string; deleting: boolean; remove: () => void }) {
  if (e.pending) return <span>Being written…</span>;
  if (e.failed_timestamp !== null) return <span class="export-failed">Failed: nothing to download</span>;
  if (e.deleted_timestamp !== null) return <span class="hint">Deleted {exportDate(Number(e.deleted_timestamp))}</span>;
  if (!e.export_url) return <span class="hint">No file</span>;
  return (
    <span class="row-actions">
      <a href={String(e.export_url)} download="" class="button secondary small" aria-label={`Download the export of ${date}`}>
        Download
      </a>
      <button type="button" class="secondary small" aria-label={`Delete the export of ${date}`} disabled={deleting} aria-busy={deleting ? 'true' : undefined} onClick={remove}>
        Delete
      </button>
    </span>
  );
}

export function PastExports({ exports, reload, setNotice }: { exports: Loaded<RealmExport[]>; reload: () => Promise<void>; setNotice: SetNotice }) {
  const title = useRef<HTMLHeadingElement>(null);
  const [deleting, setDeleting] = useState<number | null>(null);

  const remove = async (e: RealmExport, date: string) => {
    if (!confirm(`Delete the export of ${date}? Its file is removed from this computer.`)) return;
    setDeleting(e.id);
    try {
      await del(`/export/realm/${e.id}`);
      setNotice({ kind: 'ok', text: `The export of ${date} was deleted.` });
      await reload();
      // Focus stays in the card, not lost with the removed button.
      title.current?.focus();
    } catch (err) {
      setNotice({ kind: 'error', text: errorText(err) });
    } finally {
      setDeleting(null);
    }
  };

  let items;
  if (!exports) items = <li class="loading">Loading exports…</li>;
  else if ('error' in exports)
    items = (
      <li class="notice notice-error" role="alert">
        {exports.error}
      </li>
    );
  else if (!exports.value.length) items = <li class="empty">No exports yet.</li>;
  else
    items = [...exports.value]
      .sort((a, b) => Number(b.export_time) - Number(a.export_time))
      .map((e) => {
        const date = exportDate(Number(e.export_time));
        return (
          <li key={e.id}>
            <span>
              <strong>{date}</strong> · {e.export_type === EXPORT_PUBLIC ? 'public channels only' : 'with private data where allowed'}
            </span>
            <ExportState e={e} date={date} deleting={deleting === e.id} remove={() => void remove(e, date)} />
          </li>
        );
      });

  return (
    <>
      <h3 id="exports-title" class="exports-title" tabIndex={-1} ref={title}>
        Past exports
      </h3>
      <ul class="plain-list export-list" aria-labelledby="exports-title">
        {items}
      </ul>
    </>
  );
}
