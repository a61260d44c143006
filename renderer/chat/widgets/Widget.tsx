/**
 * A poll or to-do list in the message list, in place of the `/poll …` or `/todo …` text (as Zulip's
 * web app shows it), derived from the message's submessages (widgets.ts) each time they change, so
 * everyone's votes, options, ticks and tasks show live. A click sends one widget event
 * (`POST /submessage`); what it changes shows when its `submessage` event comes back. A refused
 * event is said in the widget (role=alert), never dropped. Only the message's author edits the
 * question or title.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, post } from '../store/api.js';
import { store, userName, type Message } from '../store/state.js';
import { takeIdx } from './widget-sends.js';
import * as w from './widgets.js';


const reason = (err: unknown) =>
  err instanceof ApiError ? (err.status === 0 ? err.message : `Hearth refused it: ${err.message}`) : 'That did not work; try again.';

/** Sends one widget event; its error (for the widget to show) or ''. */
function useSend(m: Message) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(0);
  async function send(data: Record<string, unknown>, what: string): Promise<boolean> {
    setBusy((n) => n + 1);
    try {
      await post('/submessage', { message_id: m.id, msg_type: 'widget', content: JSON.stringify(data) });
      setError('');
      return true;
    } catch (err) {
      setError(`${what} was not saved. ${reason(err)}`);
      return false;
    } finally {
      setBusy((n) => n - 1);
    }
  }
  return { error, setError, busy: busy > 0, send };
}

/** The question or title, with "Edit" for the author: a field (Enter saves, Escape cancels). */
function Heading(props: {
  id: string;
  text: string;
  placeholder: string;
  fieldLabel: string;
  editLabel: string;
  canEdit: boolean;
  startEditing: boolean;
  onSave: (text: string) => Promise<boolean>;
}) {
  const [editing, setEditing] = useState(props.startEditing);
  const [draft, setDraft] = useState(props.text);
  // Saved and not yet back as an event: shown meanwhile (as Zulip's widget sets it at once).
  const [pending, setPending] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  // Focus moves only on the person's own Edit (a poll shown with its field open takes nobody's keyboard).
  const wasEditing = useRef(props.startEditing);
  useEffect(() => {
    if (pending !== null && props.text === pending) setPending(null);
  }, [props.text, pending]);
  useEffect(() => {
    if (editing && wasEditing.current === false) field.current?.focus();
    else if (!editing && wasEditing.current) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  const shown = pending ?? props.text;
  async function save() {
    const t = draft.trim();
    setEditing(false);
    if (!t || t === shown) return;
    setPending(t);
    if (!(await props.onSave(t))) setPending(null);
  }
  if (editing && props.canEdit) {
    return (
      <div class="widget-head editing">
        <input
          ref={field}
          type="text"
          aria-label={props.fieldLabel}
          placeholder={props.placeholder}
          value={draft}
          maxLength={1000}
          onInput={(e) => setDraft(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.isComposing) {
              e.preventDefault();
              void save();
            } else if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              setEditing(false);
            }
          }}
        />
        <button type="button" class="small primary" disabled={!draft.trim()} onClick={() => void save()}>
          Save
        </button>
        <button type="button" class="small" onClick={() => setEditing(false)}>
          Cancel
        </button>
      </div>
    );
  }
  return (
    <div class="widget-head">
      <p class="widget-title" id={props.id}>
        {shown || <span class="muted">{props.placeholder}</span>}
      </p>
      {props.canEdit && (
        <button
          ref={editButton}
          type="button"
          class="small"
          aria-label={props.editLabel}
          title={props.editLabel}
          onClick={() => {
            setDraft(shown);
            setEditing(true);
          }}
        >
          Edit
        </button>
      )}
    </div>
  );
}

function WidgetError({ error }: { error: string }) {
  return (
    <p class="error widget-error" role="alert">
      {error}
    </p>
  );
}

const names = (ids: number[]) => ids.map(userName).join(', ');

function Poll({ m, poll }: { m: Message; poll: w.PollState }) {
  const self = store.selfId.value;
  const mine = m.sender_id === self;
  const { error, setError, busy, send } = useSend(m);
  const [option, setOption] = useState('');
  const titleId = `poll-${m.id}`;
  const duplicate = w.hasOption(poll, option.trim());
  async function addOption(e: Event) {
    e.preventDefault();
    const text = option.trim();
    if (!text) return;
    if (duplicate) return setError(`“${text}” is already an option.`);
    const idx = takeIdx(m.id, poll.nextIdx);
    if (idx > w.MAX_IDX) return setError('You cannot add more options to this poll.');
    setOption('');
    if (!(await send(w.pollNewOption(idx, text), `The option “${text}”`))) setOption(text);
  }
  return (
    <div class="widget poll-widget" role="group" aria-labelledby={titleId} aria-busy={busy}>
      <Heading
        id={titleId}
        text={poll.question}
        placeholder="Poll question"
        fieldLabel="Poll question"
        editLabel="Edit question"
        canEdit={mine}
        startEditing={mine && !poll.question}
        onSave={(q) => send(w.pollQuestion(q), 'The question')}
      />
      {!mine && !poll.question && <p class="hint">We are about to have a poll. Please wait for the question.</p>}
      <ul class="poll-options">
        {poll.options.map((o) => {
          const voted = o.voters.includes(self);
          const n = o.voters.length;
          return (
            <li key={o.key}>
              <button
                type="button"
                class={`poll-vote${voted ? ' voted' : ''}`}
                aria-pressed={voted}
                aria-label={`Vote for ${o.option}: ${n} ${n === 1 ? 'vote' : 'votes'}`}
                title={voted ? 'Take back your vote' : 'Vote'}
                onClick={() => void send(w.pollVote(poll, o.key, self), 'Your vote')}
              >
                {n}
              </button>
              <span class="poll-option">
                {o.option}
                {n > 0 && <span class="poll-names"> ({names(o.voters)})</span>}
              </span>
            </li>
          );
        })}
      </ul>
      <form class="widget-add" onSubmit={(e) => void addOption(e)}>
        <input
          type="text"
          aria-label="New option"
          placeholder="New option"
          value={option}
          maxLength={1000}
          aria-invalid={duplicate || undefined}
          onInput={(e) => setOption(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Escape' && option && (e.preventDefault(), e.stopPropagation(), setOption(''))}
        />
        <button type="submit" disabled={!option.trim()} title={duplicate ? 'Option already present.' : undefined}>
          Add option
        </button>
      </form>
      {error && <WidgetError error={error} />}
    </div>
  );
}

function Todo({ m, todo }: { m: Message; todo: w.TodoState }) {
  const mine = m.sender_id === store.selfId.value;
  const { error, setError, busy, send } = useSend(m);
  const [task, setTask] = useState('');
  const [desc, setDesc] = useState('');
  const taskField = useRef<HTMLInputElement>(null);
  // Ticks sent and not yet back: shown as clicked meanwhile (a refusal puts the box back).
  const [wanted, setWanted] = useState<ReadonlyMap<string, boolean>>(new Map());
  useEffect(() => {
    const settled = [...wanted].filter(([key, done]) => todo.tasks.find((t) => t.key === key)?.completed === done);
    if (settled.length) setWanted((had) => new Map([...had].filter(([key]) => !settled.some(([k]) => k === key))));
  }, [todo, wanted]);
  async function strike(t: w.TodoTask) {
    const done = !(wanted.get(t.key) ?? t.completed);
    setWanted((had) => new Map(had).set(t.key, done));
    if (!(await send(w.todoStrike(t.key), `${done ? 'Ticking' : 'Unticking'} “${t.task}”`))) {
      setWanted((had) => new Map([...had].filter(([key]) => key !== t.key)));
    }
  }
  const titleId = `todo-${m.id}`;
  const duplicate = w.hasTask(todo, task.trim());
  async function addTask(e: Event) {
    e.preventDefault();
    const t = task.trim();
    const d = desc.trim();
    if (!t) return;
    if (duplicate) return setError(`“${t}” is already a task.`);
    const idx = takeIdx(m.id, todo.nextIdx);
    if (idx > w.MAX_IDX) return setError('You cannot add more tasks to this list.');
    setTask('');
    setDesc('');
    taskField.current?.focus();
    if (!(await send(w.todoNewTask(idx, t, d), `The task “${t}”`))) {
      setTask(t);
      setDesc(d);
    }
  }
  return (
    <div class="widget todo-widget" role="group" aria-labelledby={titleId} aria-busy={busy}>
      <Heading
        id={titleId}
        text={todo.title}
        placeholder="Task list title"
        fieldLabel="Task list title"
        editLabel="Edit title"
        canEdit={mine}
        startEditing={false}
        onSave={(t) => send(w.todoTitle(t), 'The title')}
      />
      <ul class="todo-tasks">
        {todo.tasks.map((t) => {
          const done = wanted.get(t.key) ?? t.completed;
          return (
            <li key={t.key} class={done ? 'done' : undefined}>
              <label>
                <input type="checkbox" checked={done} onChange={() => void strike(t)} />
                <span class="todo-text">
                  <strong>{t.task}</strong>
                  {t.desc && <span class="todo-desc">: {t.desc}</span>}
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      <form class="widget-add todo-add" onSubmit={(e) => void addTask(e)}>
        <input
          ref={taskField}
          type="text"
          aria-label="New task"
          placeholder="New task"
          value={task}
          maxLength={1000}
          aria-invalid={duplicate || undefined}
          onInput={(e) => setTask(e.currentTarget.value)}
        />
        <input
          type="text"
          aria-label="Task description (optional)"
          placeholder="Description (optional)"
          value={desc}
          maxLength={1000}
          onInput={(e) => setDesc(e.currentTarget.value)}
        />
        <button type="submit" disabled={!task.trim()} title={duplicate ? 'Cannot add duplicate task.' : undefined}>
          Add task
        </button>
      </form>
      {error && <WidgetError error={error} />}
    </div>
  );
}

/** The widget a message carries, or null (then its content is shown as usual). */
export function widgetStateOf(m: Message): w.WidgetState | null {
  if (m.pending || !m.submessages?.length) return null;
  return w.widgetOf(m.sender_id, m.submessages, store.selfId.value);
}

export function Widget({ m, state }: { m: Message; state: w.WidgetState }) {
  return state.kind === 'poll' ? <Poll m={m} poll={state} /> : <Todo m={m} todo={state} />;
}
