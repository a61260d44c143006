import type { ApiRequest, ViewResult } from '../context.js';
import { fingerprintOf, scopeOf } from '../tls/certificates.js';
import { serverLanUrls } from '../lib/network/server-urls.js';
import { directorySize } from '../lib/runtime/backup.js';
import { diskSpace } from '../lib/runtime/disk-space.js';
import { guestUploadMibPerDay, uploadQuotaMib } from '../lib/uploads/limits.js';
import { FEATURE_LEVEL, HEARTH_VERSION } from '../version.js';
import { requireAdmin } from '../lib/people/require.js';

/**
 * GET /hearth/status (administrators): what the desktop status page and tray show.
 * `connected_clients` counts live event queues (one per open app or browser tab);
 * `connected_users` the distinct people behind them. `storage_error` is set while the
 * data dir refuses writes (every change answers 503 until it takes one again). `disk_space_low`
 * is true when the data dir's disk has under 1 GiB or under 5% free (`disk_free_bytes` of
 * `disk_total_bytes`; all three null when the system cannot tell).
 */
export async function getStatus(req: ApiRequest): Promise<ViewResult> {
  requireAdmin(req);
  const { app } = req;
  const disk = await diskSpace(app.config.dataDir);
  return {
    lan_urls: serverLanUrls(req),
    version: HEARTH_VERSION,
    zulip_feature_level: FEATURE_LEVEL,
    uptime_seconds: Math.max(0, Math.floor((app.clock.now() - app.config.startedAt) / 1000)),
    data_dir: app.config.dataDir,
    connected_clients: app.events.size,
    connected_users: app.events.connectedUsers,
    store_bytes: await directorySize(app.config.dataDir),
    storage_error: app.storageHealth.failure,
    storage_rollbacks: app.storageHealth.rollbacks,
    disk_free_bytes: disk?.free ?? null,
    disk_total_bytes: disk?.total ?? null,
    disk_space_low: disk?.low ?? null,
    // HTTPS with this installation's authority: its port and the fingerprint people compare.
    https_port: app.config.tlsAddress?.port ?? null,
    ca_fingerprint_sha256: app.config.caCertificate ? fingerprintOf(app.config.caCertificate) : null,
    // Whether the authority may vouch for local names only (false: one from before Name Constraints, to replace).
    ca_name_constrained: app.config.caCertificate ? scopeOf(app.config.caCertificate) !== null : null,
    // This computer's names and addresses the authority may not vouch for (not in the server certificate).
    https_names_left_out: app.tls?.leftOut ?? [],
    // Hearth's server switches (server/lib/realm/server-settings.ts), as in effect.
    plain_http: app.store.realm.data.realm?.settings.hearth_plain_http !== false,
    discovery: app.store.realm.data.realm?.settings.hearth_discovery !== false,
    api_rate_limit: app.store.realm.data.realm?.settings.hearth_api_rate_limit ?? app.config.apiRateLimitPerMinute,
    // Upload limits in effect (server/lib/uploads/limits.ts) and the bytes of stored uploads they count.
    upload_quota_mib: app.store.realm.data.realm ? uploadQuotaMib(app) : null,
    upload_space_used: app.store.attachments.totalSize(),
    guest_upload_mib_per_day: guestUploadMibPerDay(app),
  };
}
