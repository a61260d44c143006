/** Small DOM helpers: elements are built with properties and text nodes, never from HTML strings. */
import { externalLink } from './desktop.js';
import { createSanitizer, globalPurify } from './purify.js';

export { withoutInlineAttributes } from './purify.js';

type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

/** `h('button', {type: 'button', onclick: fn}, 'Save')`: attributes, `on*` listeners, children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/** A fresh element ID (random: a page holds a few hundred at most, so none repeats). */
export const uid = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 12)}`;

/** A labelled field: `<div class="field"><label for=id>…</label><input id=id …><small>hint</small></div>`. */
export function field(label: string, control: HTMLElement, hint?: string): HTMLDivElement {
  if (!control.id) control.id = uid('f');
  const wrap = h('div', { class: 'field' }, h('label', { for: control.id }, label), control);
  if (hint) {
    const hintId = uid('hint');
    control.setAttribute('aria-describedby', hintId);
    wrap.append(h('small', { id: hintId, class: 'hint' }, hint));
  }
  return wrap;
}

/** A `<div role="status">` / `role="alert"` line for one form or section. */
export class Notice {
  readonly el = h('p', { class: 'notice', role: 'status', 'aria-live': 'polite', hidden: true });
  show(kind: 'error' | 'ok' | 'info', text: string): void {
    this.el.hidden = false;
    this.el.className = `notice notice-${kind}`;
    this.el.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    this.el.textContent = text;
  }
  clear(): void {
    this.el.hidden = true;
    this.el.textContent = '';
  }
}

export const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Runs an async action for a button or form: disables it, shows "busy", reports the error
 * (in `notice`) instead of throwing. Returns whether it succeeded.
 */
export async function busy(control: HTMLButtonElement | HTMLFormElement, notice: Notice, fn: () => Promise<void>): Promise<boolean> {
  const buttons = control instanceof HTMLFormElement ? Array.from(control.querySelectorAll('button')) : [control];
  for (const b of buttons) b.disabled = true;
  control.setAttribute('aria-busy', 'true');
  try {
    await fn();
    return true;
  } catch (err) {
    notice.show('error', errorText(err));
    return false;
  } finally {
    for (const b of buttons) b.disabled = false;
    control.removeAttribute('aria-busy');
  }
}

/**
 * A wide table in a box of its own that scrolls sideways on a narrow screen (the page does
 * not); focusable, so the keyboard can scroll it too.
 */
export const tableBox = (label: string, table: HTMLTableElement) =>
  h('div', { class: 'table-wrap', role: 'region', 'aria-label': label, tabindex: 0 }, table);

/** A "Loading…" placeholder for a section while its data comes. */
export const loading = (what: string) => h('p', { class: 'loading', role: 'status' }, `Loading ${what}…`);

/**
 * Server HTML (rendered Markdown) for the admin pages, through the web app's one DOMPurify set-up
 * (purify.ts; DOMPurify itself loaded by index.html as vendor/purify.min.js): every link opens in a
 * new tab without the opener (in the desktop window, in the browser), images only from this server.
 */
export function safeHtml(html: string): DocumentFragment {
  const fragment = createSanitizer(globalPurify(), { config: { USE_PROFILES: { html: true } } }).toFragment(html);
  for (const img of Array.from(fragment.querySelectorAll('img'))) {
    const src = img.getAttribute('src') ?? '';
    if (new URL(src, location.href).origin !== location.origin) img.remove();
  }
  for (const a of Array.from(fragment.querySelectorAll('a'))) externalLink(a);
  return fragment;
}

/** Copies text: the Clipboard API where the page is a secure context, else a selected field + execCommand. */
export async function copyText(text: string, source?: HTMLInputElement): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const input = source ?? h('input', { value: text, readonly: true, class: 'offscreen' });
  if (!source) document.body.append(input);
  input.select();
  const ok = document.execCommand('copy');
  if (!source) input.remove();
  if (!ok) throw new Error('Copy failed: select the key and copy it by hand');
}

/** Offers `text` as a file download named `name`. */
export function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/octet-stream' }));
  const a = h('a', { href: url, download: name, class: 'offscreen' });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A modal dialog with a form; resolves when closed. `onSubmit` returning false keeps it open. */
export function dialog(
  title: string,
  body: HTMLElement[],
  submitLabel: string,
  onSubmit: (notice: Notice) => Promise<boolean>,
  opts: { cancel?: boolean } = {},
): void {
  const notice = new Notice();
  const form = h('form', { method: 'dialog', class: 'dialog-form' });
  const titleId = uid('dlg');
  const dlg = h('dialog', { 'aria-labelledby': titleId });
  const cancel = h('button', { type: 'button', class: 'secondary' }, 'Cancel');
  cancel.addEventListener('click', () => dlg.close());
  form.append(
    h('h2', { id: titleId }, title),
    ...body,
    notice.el,
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, submitLabel), opts.cancel === false ? null : cancel),
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void busy(form, notice, async () => {
      if (await onSubmit(notice)) dlg.close();
    });
  });
  dlg.append(form);
  dlg.addEventListener('close', () => dlg.remove());
  document.body.append(dlg);
  dlg.showModal();
}
