/**
 * Compose's "Add a poll" and "Add a to-do list" (Zulip's compose widget dialogs, "Create a poll" and
 * "Create a collaborative to-do list"): a question and options, or a title and tasks (each with an
 * optional description); a new empty row appears as the last one is filled. The result is the
 * message text Zulip's web app frames (widgets.ts pollMessage/todoMessage), handed to the compose
 * box to send; the server makes the widget when it is sent.
 */
import { useRef, useState } from 'preact/hooks';
import { Modal } from '../ui/Dialog.js';
import { DEFAULT_TODO_TITLE, pollMessage, todoMessage } from './widgets.js';

/** Keeps one empty row last, so there is always somewhere to type the next one. */
function withSpareRow<T>(rows: T[], empty: (r: T) => boolean, blank: () => T): T[] {
  return rows.length && empty(rows[rows.length - 1]!) ? rows : [...rows, blank()];
}

/** Moves focus to the row field `index` of `list` after a removal (or to the first field). */
function focusRow(list: HTMLElement | null, index: number) {
  setTimeout(() => {
    const fields = list?.querySelectorAll<HTMLInputElement>('input.row-main');
    fields?.[Math.min(index, fields.length - 1)]?.focus();
  });
}

/** The ✕ that removes a row (an option or a task), then puts the keyboard in the row now at its place. */
function RemoveRow({ label, onRemove, list, row }: { label: string; onRemove: () => void; list: { current: HTMLElement | null }; row: number }) {
  return (
    <button
      type="button"
      class="small"
      aria-label={label}
      title="Remove"
      onClick={() => {
        onRemove();
        focusRow(list.current, row);
      }}
    >
      ✕
    </button>
  );
}

export function PollDialog({ onDone, onClose }: { onDone: (content: string) => void; onClose: () => void }) {
  const [question, setQuestion] = useState('');
  const [options, setOptions] = useState(['', '', '']);
  const [error, setError] = useState('');
  const list = useRef<HTMLOListElement>(null);
  const rows = withSpareRow(options, (o) => !o.trim(), () => '');
  return (
    <Modal title="Create a poll" onClose={onClose} class="widget-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!question.trim()) return setError('Please enter a question.');
          onDone(pollMessage(question, options));
        }}
      >
        <label>
          Question
          <input
            type="text"
            value={question}
            maxLength={1000}
            autoFocus
            aria-required="true"
            aria-describedby={error ? 'poll-dialog-error' : undefined}
            onInput={(e) => (setQuestion(e.currentTarget.value), setError(''))}
          />
        </label>
        <fieldset>
          <legend>Options</legend>
          <ol class="widget-rows" ref={list}>
            {rows.map((o, i) => (
              <li key={i}>
                <input
                  type="text"
                  class="row-main"
                  aria-label={`Option ${i + 1}`}
                  placeholder={`Option ${i + 1}`}
                  value={o}
                  maxLength={1000}
                  onInput={(e) => {
                    const v = e.currentTarget.value;
                    setOptions(rows.map((x, j) => (j === i ? v : x)));
                  }}
                />
                {i < rows.length - 1 && (
                  <RemoveRow label={`Remove option ${i + 1}`} onRemove={() => setOptions(rows.filter((_, j) => j !== i))} list={list} row={i} />
                )}
              </li>
            ))}
          </ol>
        </fieldset>
        <p class="hint">Anyone can add options and vote. Only you can edit the question.</p>
        {error && (
          <p class="error" role="alert" id="poll-dialog-error">
            {error}
          </p>
        )}
        <div class="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary">
            Add poll
          </button>
        </div>
      </form>
    </Modal>
  );
}

type TaskRow = { task: string; desc: string };

export function TodoDialog({ onDone, onClose }: { onDone: (content: string) => void; onClose: () => void }) {
  const [title, setTitle] = useState('');
  const [tasks, setTasks] = useState<TaskRow[]>([{ task: '', desc: '' }]);
  const [error, setError] = useState('');
  const list = useRef<HTMLOListElement>(null);
  const rows = withSpareRow(tasks, (t) => !t.task.trim() && !t.desc.trim(), () => ({ task: '', desc: '' }));
  const change = (i: number, part: Partial<TaskRow>) => {
    setError('');
    setTasks(rows.map((x, j) => (j === i ? { ...x, ...part } : x)));
  };
  return (
    <Modal title="Create a collaborative to-do list" onClose={onClose} class="widget-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (rows.some((t) => !t.task.trim() && t.desc.trim())) return setError('Please enter task title.');
          onDone(todoMessage(title, tasks));
        }}
      >
        <label>
          Title
          <input type="text" value={title} placeholder={DEFAULT_TODO_TITLE} maxLength={1000} autoFocus onInput={(e) => setTitle(e.currentTarget.value)} />
        </label>
        <fieldset>
          <legend>Tasks</legend>
          <ol class="widget-rows tasks" ref={list}>
            {rows.map((t, i) => (
              <li key={i}>
                <input
                  type="text"
                  class="row-main"
                  aria-label={`Task ${i + 1}`}
                  placeholder={`Task ${i + 1}`}
                  value={t.task}
                  maxLength={1000}
                  onInput={(e) => change(i, { task: e.currentTarget.value })}
                />
                <input
                  type="text"
                  aria-label={`Task ${i + 1} description (optional)`}
                  placeholder="Description (optional)"
                  value={t.desc}
                  maxLength={1000}
                  onInput={(e) => change(i, { desc: e.currentTarget.value })}
                />
                {i < rows.length - 1 && (
                  <RemoveRow label={`Remove task ${i + 1}`} onRemove={() => setTasks(rows.filter((_, j) => j !== i))} list={list} row={i} />
                )}
              </li>
            ))}
          </ol>
        </fieldset>
        <p class="hint">Anyone can add and tick tasks. Only you can edit the title.</p>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <div class="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary">
            Create to-do list
          </button>
        </div>
      </form>
    </Modal>
  );
}
