/**
 * Files dragged anywhere on the chat (the message list, the sidebar, the compose box) go to the
 * open compose box, as in Zulip: while they are over the page `dragging` is true (the compose box
 * shows an overlay saying where they will go); dropped, they are handed to the box that asked
 * for them (`acceptDrops`). With no compose box open the page refuses them, so the browser never
 * leaves the chat to show a dropped file.
 */
import { signal } from '@preact/signals';

export const dragging = signal(false);

type Taker = (files: File[]) => void;
/** The compose box that takes dropped files, and how many elements the drag has entered. */
const drag: { taker: Taker | null; depth: number } = { taker: null, depth: 0 };

const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');

function stop(): void {
  drag.depth = 0;
  dragging.value = false;
}

function over(e: DragEvent): void {
  if (!hasFiles(e)) return;
  e.preventDefault();
  if (e.dataTransfer) e.dataTransfer.dropEffect = drag.taker ? 'copy' : 'none';
  if (drag.taker && !dragging.value) dragging.value = true;
}

/**
 * Listens for files dragged over the page (main.tsx, from the start: files dropped before any compose
 * box opened, on the Inbox, do not take the page away).
 */
export function installFileDrop(): void {
  document.addEventListener('dragenter', (e) => {
    if (!hasFiles(e)) return;
    drag.depth++;
    over(e);
  });
  document.addEventListener('dragover', over);
  document.addEventListener('dragleave', (e) => {
    if (!hasFiles(e)) return;
    drag.depth = Math.max(0, drag.depth - 1);
    // Out of the window (no element entered), or every element entered has been left.
    if (!e.relatedTarget || drag.depth === 0) stop();
  });
  document.addEventListener('drop', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    stop();
    const files = Array.from(e.dataTransfer?.files ?? []);
    if (drag.taker && files.length) drag.taker(files);
  });
  document.addEventListener('dragend', stop);
}

/** Dropped files go to `take` until the returned function is called. */
export function acceptDrops(take: Taker): () => void {
  drag.taker = take;
  return () => {
    if (drag.taker !== take) return;
    drag.taker = null;
    stop();
  };
}
