/** Where uploaded files' bytes are under the data dir (`uploads/files/<xx>/<random>`), and their thumbnails beside them. */
import { join } from 'node:path';
import type { App } from '../../context.js';
import type { AttachmentRecord } from '../../store/attachment-records.js';

export const filesDir = (app: App) => join(app.config.dataDir, 'uploads', 'files');
export const storagePath = (app: App, a: Pick<AttachmentRecord, 'storage'>) => join(filesDir(app), a.storage);
