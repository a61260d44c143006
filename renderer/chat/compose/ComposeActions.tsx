/** The row under the compose box: the length counter, files, video and voice call, poll, to-do list, preview, schedule, send. */
import { store } from '../store/state.js';
import { voiceCalls } from './video-call.js';
import { COUNTER_FROM } from './compose-box.js';
import type { WidgetKind } from './widget-dialogs.js';

interface Props {
  /** Characters left before the server's limit (negative: over it). */
  left: number;
  text: string;
  previewing: boolean;
  onFiles: (files: FileList) => void;
  /** `voice`: a voice call (Hearth's own provider and BigBlueButton make them). */
  onVideoCall: (voice: boolean) => void;
  onWidget: (kind: WidgetKind, button: HTMLButtonElement) => void;
  onTogglePreview: () => void;
  onSchedule: () => void;
}

/** Compose's widget buttons (Zulip's): each opens its dialog while the message box is empty. */
const WIDGET_BUTTONS: readonly { kind: WidgetKind; what: string; label: string }[] = [
  { kind: 'poll', what: 'a poll', label: 'Poll' },
  { kind: 'todo', what: 'a to-do list', label: 'To-do list' },
];

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
        <button type="button" onClick={() => onVideoCall(false)}>
          Video call
        </button>
      )}
      {voiceCalls() && (
        <button type="button" onClick={() => onVideoCall(true)}>
          Voice call
        </button>
      )}
      {WIDGET_BUTTONS.map((w) => (
        <button
          key={w.kind}
          type="button"
          class="widget-button"
          aria-haspopup="dialog"
          aria-label={`Add ${w.what}`}
          title={text.trim() ? `${w.what[0]!.toUpperCase()}${w.what.slice(1)} is a message of its own: empty the message box first` : `Add ${w.what}`}
          aria-disabled={text.trim() ? true : undefined}
          onClick={(e) => onWidget(w.kind, e.currentTarget)}
        >
          {w.label}
        </button>
      ))}
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
