import type { App } from '../../context.js';

/** The organization's upload limit in MiB (`max_file_upload_size_mib`, Zulip's default 25). */
export const maxUploadMib = (app: App) => app.store.realm.data.realm!.settings.max_file_upload_size_mib;

export const maxUploadBytes = (app: App) => maxUploadMib(app) * 1024 * 1024;

/** Zulip's message for a self-hosted server's limit. */
export const tooLargeMessage = (app: App) =>
  `File is larger than this server's configured maximum upload size (${maxUploadMib(app)} MiB).`;
