import { open, rename, readFile, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Adapter } from 'lowdb';

/** Raised when a data file cannot be parsed: the server refuses to start and names the file. */
export class CorruptFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`Data file ${file} is unreadable (${reason}). Hearth will not start and has not changed it; restore it from a backup or move it aside.`);
    this.name = 'CorruptFileError';
  }
}

/** Flushes a file's contents to disk. */
export const fsyncFile = (path: string): Promise<void> => fsyncPath(path, 'r');

async function fsyncPath(path: string, flags: string): Promise<void> {
  const handle = await open(path, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Bytes to write over the end of the file in place (from offset `at`, which must be inside the
 * file as last written), instead of replacing it: an append to a JSON array rewrites its closing
 * `]` and adds the new items (server/store/segmented.ts).
 */
export interface TailPatch {
  at: number;
  bytes: Buffer;
  /** What the file held from `at` to its end before the patch, put back if the patch fails (e.g. a full disk). */
  undo: Buffer;
}

/**
 * A lowdb adapter that acknowledges a write only once it is on disk: it writes
 * `file.tmp`, fsyncs it, renames it over `file` and fsyncs the directory. A serializer may
 * answer a TailPatch instead: those bytes are written in place at its offset and the file is
 * fdatasynced (no rename: the directory does not change). `onFailed` hears of a flush that
 * failed, after which the file's tail is unknown (a patch may be half written).
 *
 * Group commit: writes that arrive while a flush is running are coalesced into
 * the next flush, which serialises the newest data once. Every caller's promise
 * resolves after a flush that started after its call, so it includes its change.
 */
export class DurableJSONFile<T> implements Adapter<T> {
  private latest: T | undefined;
  private queued: Promise<void> | null = null;
  private tail: Promise<void> = Promise.resolve();
  /** Flushes done since open; read by benchmarks and tests. */
  flushes = 0;
  /** Writes requested since open, and how many of them a finished flush covered. */
  private requested = 0;
  private landed = 0;

  constructor(
    readonly file: string,
    private readonly mode = 0o600,
    /** How the data becomes the file's text (default JSON.stringify; segments reuse unchanged items' text, or patch the tail). */
    private readonly serialize: (data: T) => string | Buffer | TailPatch = (data) => JSON.stringify(data),
    private readonly onFailed: () => void = () => undefined,
  ) {}

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      throw new CorruptFileError(this.file, text.length === 0 ? 'empty file' : (err as Error).message);
    }
  }

  write(data: T): Promise<void> {
    this.latest = data;
    this.requested++;
    if (this.queued) return this.queued;
    const next = this.tail
      .catch(() => undefined)
      .then(async () => {
        this.queued = null;
        const covers = this.requested;
        await this.flush(this.latest as T);
        this.landed = covers;
      });
    this.queued = next;
    this.tail = next;
    return next;
  }

  /**
   * True when the file on disk holds every write requested so far (none in
   * flight, none failed): a snapshot may then take the file instead of the data.
   */
  get clean(): boolean {
    return this.landed === this.requested;
  }

  /** Resolves when every write requested so far has finished (landed or failed). */
  async settled(): Promise<void> {
    let t: Promise<void>;
    do {
      t = this.tail;
      await t.catch(() => undefined);
    } while (t !== this.tail);
  }

  private async flush(data: T): Promise<void> {
    try {
      const text = this.serialize(data);
      if (typeof text === 'string' || Buffer.isBuffer(text)) await this.replace(text);
      else await this.patch(text);
    } catch (err) {
      this.onFailed();
      throw err;
    }
    this.flushes++;
  }

  private async patch({ at, bytes, undo }: TailPatch): Promise<void> {
    const handle = await open(this.file, 'r+');
    try {
      await writeAt(handle, bytes, at);
      await handle.datasync();
    } catch (err) {
      // Leave the file as it was (no new block is needed for that), so it never stays torn.
      await writeAt(handle, undo, at)
        .then(() => handle.truncate(at + undo.length))
        .then(() => handle.datasync())
        .catch(() => undefined);
      throw err;
    } finally {
      await handle.close();
    }
  }

  private async replace(text: string | Buffer): Promise<void> {
    const tmp = `${this.file}.tmp`;
    const handle = await open(tmp, 'w', this.mode);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } catch (err) {
      // A full disk: the half-written copy goes, so its blocks are free again (the file is untouched).
      await handle.close().catch(() => undefined);
      await unlink(tmp).catch(() => undefined);
      throw err;
    }
    await handle.close();
    await rename(tmp, this.file);
    await fsyncPath(dirname(this.file), 'r');
  }
}

async function writeAt(handle: FileHandle, bytes: Buffer, at: number): Promise<void> {
  for (let done = 0; done < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, at + done);
    done += bytesWritten;
  }
}

/** Removes a stale temp file left by a crash between write and rename. */
export async function removeStaleTemp(file: string): Promise<void> {
  await unlink(`${file}.tmp`).catch(() => undefined);
}
