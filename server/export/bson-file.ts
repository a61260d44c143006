/** A mongodump-style `.bson` file: BSON documents one after another, written in batches and fsynced. */
import { open, type FileHandle } from 'node:fs/promises';
import { BSON } from 'bson';

const BATCH_BYTES = 1 << 20;

export class BsonFile {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  count = 0;
  bytes = 0;

  private constructor(private readonly handle: FileHandle) {}

  static async create(path: string): Promise<BsonFile> {
    return new BsonFile(await open(path, 'wx', 0o600));
  }

  /** Adds one document; resolves once earlier batches are written (back-pressure). */
  async add(doc: Record<string, unknown>): Promise<void> {
    const bytes = BSON.serialize(doc);
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    this.count += 1;
    this.bytes += bytes.length;
    if (this.pendingBytes >= BATCH_BYTES) await this.flush();
  }

  private async flush(): Promise<void> {
    if (!this.pending.length) return;
    const chunks = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    await this.handle.writev(chunks);
  }

  async close(): Promise<void> {
    try {
      await this.flush();
      await this.handle.sync();
    } finally {
      await this.handle.close();
    }
  }

  /** Closes without caring about errors (a failed export being cleaned up). */
  async abandon(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}

/** Writes a whole collection at once. */
export async function writeBsonFile(path: string, docs: Iterable<Record<string, unknown>>): Promise<number> {
  const file = await BsonFile.create(path);
  try {
    for (const d of docs) await file.add(d);
  } catch (err) {
    await file.abandon();
    throw err;
  }
  await file.close();
  return file.count;
}
