/**
 * A widget as plain Markdown, for the export to Zulip: its importer (Rocket.Chat's) has no
 * submessages, so a poll becomes its question and each option with its votes and voters, a to-do
 * list its title and each task ticked or not, in place of the `/poll` or `/todo` text.
 */
import { widgetState, type PollState, type TodoState, type WidgetMessage } from './widget-state.js';

/** Markdown's active characters in a line of text, escaped (the text was never Markdown in the widget). */
const plain = (s: string) => s.replace(/[\\`*_[\]<>#|~$]/g, (c) => `\\${c}`).replace(/\s+/g, ' ').trim();

function pollText(p: PollState, nameOf: (userId: number) => string): string {
  const lines = [`**Poll: ${plain(p.question) || '(no question)'}**`];
  for (const o of p.options.values()) {
    const n = o.voters.size;
    const names = [...o.voters].map((id) => plain(nameOf(id))).join(', ');
    lines.push(`- ${plain(o.option)}: ${n} ${n === 1 ? 'vote' : 'votes'}${n ? ` (${names})` : ''}`);
  }
  return lines.join('\n');
}

function todoText(t: TodoState): string {
  const lines = [`**To-do list: ${plain(t.title) || 'Task list'}**`];
  for (const x of t.tasks.values()) {
    lines.push(`- ${x.completed ? '☑' : '☐'} ${plain(x.task)}${x.desc ? `: ${plain(x.desc)}` : ''}`);
  }
  return lines.join('\n');
}

/** The message's poll or to-do list as text, or null (no widget, or one that is not a poll or to-do list). */
export function widgetText(m: WidgetMessage, nameOf: (userId: number) => string): string | null {
  const state = widgetState(m);
  if (state?.widget_type === 'poll') return pollText(state as PollState, nameOf);
  if (state?.widget_type === 'todo') return todoText(state as TodoState);
  return null;
}
