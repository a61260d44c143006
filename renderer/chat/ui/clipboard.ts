/** Copying text and offering it as a file, from a page that may not be a secure context (plain HTTP on the LAN). */

/** Copies text: the Clipboard API where the page is a secure context, else a selected field + execCommand. */
export async function copyText(text: string, source?: HTMLInputElement | null): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const input = source ?? Object.assign(document.createElement('input'), { value: text, readOnly: true, className: 'offscreen' });
  if (!source) document.body.append(input);
  input.select();
  const ok = document.execCommand('copy');
  if (!source) input.remove();
  if (!ok) throw new Error('Copy failed: select the text and copy it by hand');
}

/** Offers `text` as a file download named `name`. */
export function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/octet-stream' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name, className: 'offscreen' });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
