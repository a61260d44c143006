/**
 * Zulip's widgets at send time (zerver/lib/widget.py, check_widget_content): a message whose content
 * starts with `/poll` or `/todo` gets a widget submessage (`msg_type` "widget", content
 * `{"widget_type", "extra_data"}`), parsed as Zulip parses it; the `widget_content` send parameter
 * (bots' zform choices) overrides it. Hearth bounds widgets (WIDGET_LIMITS), refusing a send past them.
 */
import { errors } from '../../errors.js';

/** Hearth's bounds on widgets (Zulip has only MAX_IDX, the highest option or task index a client may send). */
export const WIDGET_LIMITS = {
  /** Options of a poll, tasks of a to-do list (from the message and added later, together). */
  items: 100,
  /** Characters of a question, title, option, task or task description. */
  text: 1000,
  /** Characters of a submessage's content (POST /submessage). */
  content: 5000,
  /** Submessages on one message, the widget included. */
  submessages: 2000,
  /** Characters of all of one message's submessages together (every fetch of the message carries them). */
  contentTotal: 200_000,
  /** Characters of the `widget_content` send parameter. */
  widgetContent: 10000,
  /** Zulip's MAX_IDX: the largest `idx` of a new poll option and `key` of a new task. */
  maxIdx: 1000,
} as const;

export const fmt = (n: number) => n.toLocaleString('en-US');

// Python's str.isspace() characters (str.strip(), splitlines() and `\s` in re differ from JavaScript's).
const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const FIRST_TOKEN = new RegExp(`^[^${PY_SPACE}]*`);
const SPACE_CHAR = new RegExp(`[${PY_SPACE}]`);
const LIST_MARKER = new RegExp(`^[${PY_SPACE}]*[-*]?[${PY_SPACE}]*`);
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

/** Python's str.strip() (a scan from each end: a trailing-space regex is quadratic on inner runs of spaces). */
function pyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && SPACE_CHAR.test(s[start]!)) start++;
  while (end > start && SPACE_CHAR.test(s[end - 1]!)) end--;
  return s.slice(start, end);
}

/** Python's str.splitlines(): no empty last line for a trailing break, none at all for ''. */
function splitLines(s: string): string[] {
  const lines = s.split(LINE_BREAK);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Python's json.dumps (`", "` and `": "` separators, non-ASCII escaped): the form Zulip stores. */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const parts = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pythonJson(k)}: ${pythonJson(v)}`);
    return `{${parts.join(', ')}}`;
  }
  if (typeof value === 'string') {
    return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  return JSON.stringify(value) ?? 'null';
}

export interface PollExtra {
  question: string;
  options: string[];
}
export interface TodoExtra {
  task_list_title: string;
  tasks: { task: string; desc: string }[];
}
export type WidgetContent =
  | { widget_type: 'poll'; extra_data: PollExtra }
  | { widget_type: 'todo'; extra_data: TodoExtra }
  | { widget_type: 'zform'; extra_data: Record<string, unknown> };

/** The first line (question or title) and the items after it, as Zulip's parse_*_extra_data split them. */
function headAndItems(rest: string): { head: string; items: string[] } {
  const lines = splitLines(rest);
  let head = '';
  if (lines.length && lines[0]) head = pyStrip(lines.shift()!);
  const items: string[] = [];
  // A list marker (`-` or `*`) in front of an item is dropped.
  for (const line of lines) {
    const item = pyStrip(line).replace(LIST_MARKER, '');
    if (item.length > 0) items.push(item);
  }
  return { head, items };
}

/** Zulip's get_widget_data: the widget of a message's content, or null (`/poll`, `/todo` as its first word). */
export function widgetFromContent(content: string): WidgetContent | null {
  const token = FIRST_TOKEN.exec(content)![0];
  if (token !== '/poll' && token !== '/todo') return null;
  const { head, items } = headAndItems(content.slice(token.length));
  if (token === '/poll') return { widget_type: 'poll', extra_data: { question: head, options: items } };
  const tasks = items.map((item) => {
    // A task and its description are separated by the first ": ".
    const at = item.indexOf(': ');
    return at < 0 ? { task: pyStrip(item), desc: '' } : { task: pyStrip(item.slice(0, at)), desc: pyStrip(item.slice(at + 2)) };
  });
  return { widget_type: 'todo', extra_data: { task_list_title: head, tasks } };
}

const chars = (s: string) => [...s].length;

/** Refuses text longer than WIDGET_LIMITS.text (`what`: "A poll option", ...). */
export function checkWidgetText(what: string, s: string): void {
  if (s.length > WIDGET_LIMITS.text && chars(s) > WIDGET_LIMITS.text) {
    throw errors.badRequest(`${what} can have at most ${fmt(WIDGET_LIMITS.text)} characters.`);
  }
}

/** Hearth's bounds on a widget made at send time. */
export function checkWidgetBounds(w: WidgetContent): void {
  if (w.widget_type === 'poll') {
    if (w.extra_data.options.length > WIDGET_LIMITS.items) throw errors.badRequest(`A poll can have at most ${WIDGET_LIMITS.items} options.`);
    checkWidgetText('A poll question', w.extra_data.question);
    for (const o of w.extra_data.options) checkWidgetText('A poll option', o);
  } else if (w.widget_type === 'todo') {
    if (w.extra_data.tasks.length > WIDGET_LIMITS.items) throw errors.badRequest(`A to-do list can have at most ${WIDGET_LIMITS.items} tasks.`);
    checkWidgetText('A to-do list title', w.extra_data.task_list_title);
    for (const t of w.extra_data.tasks) {
      checkWidgetText('A task', t.task);
      checkWidgetText("A task's description", t.desc);
    }
  }
}

/** Refuses content whose `/poll` or `/todo` is past Hearth's bounds (scheduling checks it before delivery). */
export function checkContentWidget(content: string): void {
  const w = widgetFromContent(content);
  if (w) checkWidgetBounds(w);
}

const isDict = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Zulip's check_dict (extra keys allowed) over string fields. */
function checkStringFields(varName: string, v: unknown, keys: string[]): Record<string, unknown> {
  if (!isDict(v)) throw new Error(`${varName} is not a dict`);
  for (const k of keys) {
    if (!(k in v)) throw new Error(`${k} key is missing from ${varName}`);
    if (typeof v[k] !== 'string') throw new Error(`${varName}["${k}"] is not a string`);
  }
  return v;
}

function checkZform(extra: Record<string, unknown>): void {
  if (!('type' in extra)) throw new Error('zform is missing type field');
  if (extra.type !== 'choices') throw new Error(`unknown zform type: ${String(extra.type)}`);
  checkStringFields('extra_data', extra, ['heading']);
  if (!('choices' in extra)) throw new Error('choices key is missing from extra_data');
  const choices = extra.choices;
  if (!Array.isArray(choices)) throw new Error('extra_data["choices"] is not a list');
  choices.forEach((c, i) => checkStringFields(`extra_data["choices"][${i}]`, c, ['short_name', 'long_name', 'reply']));
}

/** The `widget_content` send parameter (Zulip's check_message + check_widget_content): only zform choices. */
export function parseWidgetContent(raw: string): WidgetContent {
  if (raw.length > WIDGET_LIMITS.widgetContent) {
    throw errors.badRequest(`Widgets: widget_content is too long (at most ${fmt(WIDGET_LIMITS.widgetContent)} characters)`);
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw errors.badRequest('Widgets: API programmer sent invalid JSON content');
  }
  try {
    if (!isDict(value)) throw new Error('widget_content is not a dict');
    if (!('widget_type' in value)) throw new Error('widget_type is not in widget_content');
    if (!('extra_data' in value)) throw new Error('extra_data is not in widget_content');
    const extra = value.extra_data;
    if (!isDict(extra)) throw new Error('extra_data is not a dict');
    if (value.widget_type !== 'zform') throw new Error(`unknown widget type: ${String(value.widget_type)}`);
    checkZform(extra);
    return { widget_type: 'zform', extra_data: extra };
  } catch (err) {
    throw errors.badRequest(`Widgets: ${(err as Error).message}`);
  }
}

/** The stored content of a widget submessage, as Zulip writes it. */
export const widgetSubmessageContent = (w: WidgetContent): string =>
  pythonJson({ widget_type: w.widget_type, extra_data: w.extra_data });
