/** While files are dragged over the chat: where they will go (file-drop.ts hands them to the compose box). */
import { store } from '../store/state.js';
import type { TypingTarget } from './typing.js';
import { placeOf } from './echo.js';

export function DropOverlay({ destination, mode }: { destination: TypingTarget | null; mode: 'channel' | 'dm' }) {
  return (
    <div class="drop-overlay" role="status">
      <p>
        <strong>Drop files to upload them</strong>
        <span>
          {destination
            ? `They go into your message to ${placeOf(destination)}.`
            : mode === 'dm'
              ? 'They go into your new message: pick who to write to first.'
              : 'They go into your new message: pick a channel first.'}
        </span>
        <span class="hint">Up to {store.maxFileUploadMib.value} MiB each.</span>
      </p>
    </div>
  );
}
