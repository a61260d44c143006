/** Status, Backup: "Back up now" to a folder on the computer running Hearth, with progress. */
import { useEffect, useState } from 'preact/hooks';
import { desktop } from '../../../desktop.js';
import { BusyButton } from '../../ui/BusyButton.js';
import { useBusy } from '../../ui/busy.js';
import { Field } from '../../ui/Field.js';
import { Notice, type SetNotice, useNotice } from '../../ui/Notice.js';
import { get, post } from '../api.js';
import { useAlive, pause } from './alive.js';
import { formatBytes } from './format.js';

/** A backup's progress (`GET`/`POST /hearth/backup`, server/lib/runtime/backup.ts' BackupStatus). */
interface BackupProgress {
  state: 'idle' | 'running' | 'done' | 'failed';
  copied_bytes: number;
  total_bytes: number;
  destination: string | null;
  error: string | null;
}

/** What the notice says of a backup's progress (nothing while idle). */
function say(b: BackupProgress, setNotice: SetNotice): void {
  if (b.state === 'running') setNotice({ kind: 'info', text: `Copying… ${formatBytes(Number(b.copied_bytes))} of ${formatBytes(Number(b.total_bytes))}` });
  else if (b.state === 'done') setNotice({ kind: 'ok', text: `Backup complete: ${formatBytes(Number(b.total_bytes))} copied to ${b.destination}.` });
  else if (b.state === 'failed') setNotice({ kind: 'error', text: `Backup failed: ${b.error ?? 'unknown error'}` });
}

export function Backup() {
  const [notice, setNotice] = useNotice();
  const [busy, run] = useBusy(setNotice);
  const [destination, setDestination] = useState('');
  const [progress, setProgress] = useState<BackupProgress | null>(null);
  const alive = useAlive();
  const choose = desktop()?.chooseFolder;

  const show = (b: BackupProgress) => {
    setProgress(b);
    say(b, setNotice);
  };
  const follow = async () => {
    for (;;) {
      const b = await get<BackupProgress>('/hearth/backup');
      if (!alive.current) return;
      show(b);
      if (b.state !== 'running') return;
      await pause(400);
    }
  };

  useEffect(() => {
    get<BackupProgress>('/hearth/backup').then(
      (b) => {
        if (!alive.current) return;
        if (b.state === 'running') void run(follow);
        else if (b.state !== 'idle') show(b);
      },
      () => undefined,
    );
  }, []);

  return (
    <form
      class="card status-card"
      aria-labelledby="backup-title"
      aria-busy={busy ? 'true' : undefined}
      onSubmit={(e) => {
        e.preventDefault();
        setNotice(null);
        void run(async () => {
          show(await post<BackupProgress>('/hearth/backup', { destination }));
          await follow();
        });
      }}
    >
      <h2 id="backup-title">Backup</h2>
      <Field label="Destination folder" hint="A folder on the computer running Hearth (for example a USB disk). A new dated folder is made inside it.">
        {(ids) => (
          <input
            {...ids}
            name="destination"
            required
            autocomplete="off"
            placeholder="/media/usb/hearth-backup"
            value={destination}
            onInput={(e) => setDestination(e.currentTarget.value)}
          />
        )}
      </Field>
      {choose && (
        <div class="actions">
          <button
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() =>
              void choose().then((dir) => {
                if (dir) setDestination(dir);
              })
            }
          >
            Choose folder…
          </button>
        </div>
      )}
      <progress
        max={Math.max(1, Number(progress?.total_bytes ?? 0))}
        value={Number(progress?.copied_bytes ?? 0)}
        hidden={!progress || progress.state === 'idle'}
        aria-label="Backup progress"
      />
      <Notice notice={notice} />
      <div class="actions">
        <BusyButton type="submit" busy={busy}>
          Back up now
        </BusyButton>
      </div>
    </form>
  );
}
