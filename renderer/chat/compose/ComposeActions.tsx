/** The row under the compose box: the length counter, files, video call, poll, to-do list, preview, schedule, send. */
import { store } from '../state.js';
import { COUNTER_FROM } from '../compose-box.js';
import type { WidgetKind } from './widget-dialogs.js';

interface Props {
  /** Characters left before the server's limit (negative: over it). */
  left: number;
  text: string;
  previewing: boolean;
  onFiles: (files: FileList) => void;
  onVideoCall: () => void;
  onWidget: (kind: WidgetKind, button: HTMLButtonElement) => void;
  onTogglePreview: () => void;
  onSchedule: () => void;
}

export function ComposeActions({ left, text, previewing, onFiles, onVideoCall, onWidget, onTogglePreview, onSchedule }: Props) {
  return (
    <div class="compose-actions">
      {left <= COUNTER_FROM && (
        <span id="compose-length" class={`length-counter${left < 0 ? ' over' : ''}`}>
          {left < 0 ? `${(-left).toLocaleString()} characters over the limit` : `${left.toLocaleString()} characters left`}
        </span>
      )}
      <label class="button">
        Attach files
        <input type="file" multiple class="visually-hidden" onChange={(e) => e.currentTarget.files && onFiles(e.currentTarget.files)} />
      </label>
      {store.videoChatProvider.value !== 0 && (
        <button type="button" onClick={onVideoCall}>
          Video call
        </button>
      )}
      <button
        type="button"
        class="widget-button"
        aria-haspopup="dialog"
        aria-label="Add a poll"
        title={text.trim() ? 'A poll is a message of its own: empty the message box first' : 'Add a poll'}
        aria-disabled={text.trim() ? true : undefined}
        onClick={(e) => onWidget('poll', e.currentTarget)}
      >
        Poll
      </button>
      <button
        type="button"
        class="widget-button"
        aria-haspopup="dialog"
        aria-label="Add a to-do list"
        title={text.trim() ? 'A to-do list is a message of its own: empty the message box first' : 'Add a to-do list'}
        aria-disabled={text.trim() ? true : undefined}
        onClick={(e) => onWidget('todo', e.currentTarget)}
      >
        To-do list
      </button>
      <button type="button" onClick={onTogglePreview} aria-pressed={previewing} title="Preview (Alt+P)">
        {previewing ? 'Edit' : 'Preview'}
      </button>
      <span class="send-group">
        <button type="button" aria-haspopup="dialog" title="Send later" onClick={onSchedule}>
          Schedule
        </button>
        <button type="submit" class="primary">
          Send
        </button>
      </span>
    </div>
  );
}
