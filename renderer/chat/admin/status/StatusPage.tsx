/**
 * Status: the server's facts (version, uptime, data folder, connected clients, store size, free disk
 * space with a warning under 1 GiB or 5% free, HTTPS),
 * how people connect (the LAN addresses with QR codes), the certificate authority (Trust.tsx);
 * "Back up now" with progress (Backup.tsx); "Export for Zulip" with progress and the past exports
 * (Export.tsx).
 */
import { useEffect, useState } from 'preact/hooks';
import { desktop } from '../../../desktop.js';
import { ConnectList } from '../../ui/ConnectList.js';
import { errorText } from '../../ui/Notice.js';
import { Loading } from '../../ui/TableBox.js';
import { get } from '../api.js';
import { Backup } from './Backup.js';
import { Export } from './Export.js';
import { formatBytes, formatUptime, freeSpaceText } from './format.js';
import { Trust } from './Trust.js';

/** What the Status section shows of `GET /hearth/status`. */
interface ServerStatus {
  version: string;
  zulip_feature_level: number;
  uptime_seconds: number;
  data_dir: string;
  connected_clients: number;
  store_bytes: number;
  https_port?: number | null;
  lan_urls: string[];
  storage_error?: string | null;
  disk_free_bytes?: number | null;
  disk_total_bytes?: number | null;
  disk_space_low?: boolean | null;
  ca_fingerprint_sha256?: string | null;
  ca_name_constrained?: boolean;
  https_names_left_out?: string[];
}

/** In the desktop window: a button that opens the data folder in the file manager. */
function OpenDataFolder() {
  const open = desktop()?.openDataFolder;
  if (!open) return null;
  return (
    <div class="actions">
      <button type="button" class="secondary" onClick={() => void open()}>
        Open data folder
      </button>
    </div>
  );
}

function Facts({ s }: { s: ServerStatus }) {
  const rows: [string, string][] = [
    ['Version', `Hearth ${s.version} (Zulip API feature level ${s.zulip_feature_level})`],
    ['Running for', formatUptime(Number(s.uptime_seconds))],
    ['Data folder', String(s.data_dir)],
    ['Connected clients', String(s.connected_clients)],
    ['Store size', formatBytes(Number(s.store_bytes))],
    ...(typeof s.disk_free_bytes === 'number' ? [['Free disk space', freeSpaceText(s.disk_free_bytes, s.disk_total_bytes)] as [string, string]] : []),
    ['HTTPS', s.https_port ? `On, port ${s.https_port}` : 'Off'],
  ];
  return (
    <>
      {s.storage_error && (
        <p class="notice notice-error" role="alert">
          Hearth cannot save to its data folder ({s.storage_error}): every change is refused until it can. Free some disk space or check the folder; Hearth retries by itself.
        </p>
      )}
      {s.disk_space_low && !s.storage_error && (
        <p class="notice notice-error" role="alert">
          The disk holding Hearth's data folder is nearly full: {freeSpaceText(Number(s.disk_free_bytes), s.disk_total_bytes)} free. When it is full, every change (messages
          included) is refused until space is freed. Free some disk space, or move the data folder to a larger disk.
        </p>
      )}
      <section class="card status-card" aria-labelledby="server-title">
        <h2 id="server-title">Server</h2>
        <dl class="facts">
          {rows.map(([k, v]) => [<dt key={`${k}-t`}>{k}</dt>, <dd key={`${k}-d`}>{v}</dd>])}
        </dl>
        <OpenDataFolder />
      </section>
      <section class="card status-card" aria-labelledby="connect-title">
        <h2 id="connect-title">How people connect</h2>
        <ConnectList urls={s.lan_urls} />
      </section>
      {s.ca_fingerprint_sha256 && <Trust fingerprint={String(s.ca_fingerprint_sha256)} nameConstrained={s.ca_name_constrained} leftOut={s.https_names_left_out ?? []} />}
    </>
  );
}

export function StatusPage() {
  const [status, setStatus] = useState<{ value: ServerStatus } | { error: string } | null>(null);
  useEffect(() => {
    let live = true;
    get<ServerStatus>('/hearth/status').then(
      (value) => live && setStatus({ value }),
      (err: unknown) => live && setStatus({ error: `Could not load the status: ${errorText(err)}` }),
    );
    return () => {
      live = false;
    };
  }, []);
  return (
    <>
      {!status ? (
        <Loading what="status" />
      ) : 'error' in status ? (
        <p class="notice notice-error" role="alert">
          {status.error}
        </p>
      ) : (
        <Facts s={status.value} />
      )}
      <Backup />
      <Export />
    </>
  );
}
