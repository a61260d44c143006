/**
 * The compose box's files: by button, paste, or dropped anywhere on the chat (file-drop.ts); those
 * over the organization's size limit refused before any byte is sent; progress while they upload.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { upload } from '../store/api.js';
import { acceptDrops } from './file-drop.js';
import { store } from '../store/state.js';

export type Upload = { name: string; progress: number };

/** Zulip's words: a message sent before its files are in would go without their links. */
export const UPLOADING = 'Cannot send message while files are being uploaded.';
const MiB = 1024 * 1024;
const mib = (bytes: number) => (bytes / MiB).toLocaleString(undefined, { maximumFractionDigits: 1 });

/**
 * The uploads under way and `addFiles`; each uploaded file's link is handed to `onUploaded`
 * (`[name](url)`), each refusal or failure to `onError`. Files dropped on the chat come here too.
 */
export function useUploads(onUploaded: (link: string) => void, onError: (text: string) => void) {
  const [uploads, setUploads] = useState<Upload[]>([]);

  async function addFiles(files: FileList | File[]) {
    const limit = store.maxFileUploadMib.value;
    for (const file of Array.from(files)) {
      // Refused here, before a byte is sent (the server would refuse it only once it had it all).
      if (file.size > limit * MiB) {
        onError(`${file.name} is ${mib(file.size)} MiB: files may be up to ${limit} MiB here, so it was not uploaded.`);
        continue;
      }
      setUploads((u) => [...u, { name: file.name, progress: 0 }]);
      try {
        const res = await upload(file, (p) => setUploads((u) => u.map((x) => (x.name === file.name ? { ...x, progress: p } : x))));
        onUploaded(`[${res.filename}](${res.url})`);
      } catch (err) {
        onError(`${file.name}: ${(err as Error).message}`);
      } finally {
        setUploads((u) => u.filter((x) => x.name !== file.name));
      }
    }
  }

  const addFilesNow = useRef(addFiles);
  addFilesNow.current = addFiles;
  useEffect(() => acceptDrops((files) => void addFilesNow.current(files)), []);
  return { uploads, addFiles };
}

/** One progress line per file uploading. */
export function UploadProgress({ uploads }: { uploads: Upload[] }) {
  return (
    <>
      {uploads.map((u) => (
        <p key={u.name} class="upload" role="status">
          Uploading {u.name}… <progress max={1} value={u.progress} aria-label={`Uploading ${u.name}`} />
        </p>
      ))}
    </>
  );
}
