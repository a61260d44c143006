/** Status, Backup: "Back up now" to a folder on the computer running Hearth, with progress. */
import type { Api } from './admin-api.js';
import { Notice, busy, field, h } from './dom.js';
import { desktop } from './desktop.js';
import { formatBytes } from './status-format.js';

/** A backup's progress (`GET`/`POST /hearth/backup`, server/lib/runtime/backup.ts' BackupStatus). */
interface BackupProgress {
  state: 'idle' | 'running' | 'done' | 'failed';
  copied_bytes: number;
  total_bytes: number;
  destination: string | null;
  error: string | null;
}

/** In the desktop window: a folder picker for the backup destination. */
function chooseButton(input: HTMLInputElement): HTMLElement | null {
  const choose = desktop()?.chooseFolder;
  if (!choose) return null;
  const b = h('button', { type: 'button', class: 'secondary' }, 'Choose folder…');
  b.addEventListener('click', () =>
    void choose().then((dir) => {
      if (dir) input.value = dir;
    }),
  );
  return h('div', { class: 'actions' }, b);
}

export function backupSection(api: Api): HTMLElement {
  const notice = new Notice();
  const destination = h('input', { name: 'destination', required: true, autocomplete: 'off', placeholder: '/media/usb/hearth-backup' });
  const progress = h('progress', { max: 1, value: 0, hidden: true, 'aria-label': 'Backup progress' });
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'backup-title' },
    h('h2', { id: 'backup-title' }, 'Backup'),
    field('Destination folder', destination, 'A folder on the computer running Hearth (for example a USB disk). A new dated folder is made inside it.'),
    chooseButton(destination),
    progress,
    notice.el,
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Back up now')),
  );
  const show = (b: BackupProgress) => {
    progress.hidden = b.state === 'idle';
    progress.max = Math.max(1, Number(b.total_bytes));
    progress.value = Number(b.copied_bytes);
    if (b.state === 'running') notice.show('info', `Copying… ${formatBytes(Number(b.copied_bytes))} of ${formatBytes(Number(b.total_bytes))}`);
    else if (b.state === 'done') notice.show('ok', `Backup complete: ${formatBytes(Number(b.total_bytes))} copied to ${b.destination}.`);
    else if (b.state === 'failed') notice.show('error', `Backup failed: ${b.error ?? 'unknown error'}`);
  };
  const follow = async () => {
    for (;;) {
      const b = await api.get<BackupProgress>('/hearth/backup');
      show(b);
      if (b.state !== 'running') return;
      await new Promise((r) => setTimeout(r, 400));
    }
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    notice.clear();
    void busy(form, notice, async () => {
      show(await api.post<BackupProgress>('/hearth/backup', { destination: destination.value }));
      await follow();
    });
  });
  api.get<BackupProgress>('/hearth/backup').then(
    (b) => {
      if (b.state === 'running') void busy(form, notice, follow);
      else if (b.state !== 'idle') show(b);
    },
    () => undefined,
  );
  return form;
}
