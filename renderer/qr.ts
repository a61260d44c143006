/** QR codes for the LAN URLs, drawn offline by uqr (served from node_modules at vendor/uqr.mjs). */
import { externalLink } from './desktop.js';
import { h } from './dom.js';

type Uqr = typeof import('uqr');

const UQR_URL = './vendor/uqr.mjs';

/** A canvas with the QR code of `text` (module size 5 px, quiet zone of 4 modules). */
export async function qrCanvas(text: string): Promise<HTMLCanvasElement> {
  // The module system loads it once; later calls get the same module.
  const { encode } = await (import(UQR_URL) as Promise<Uqr>);
  const qr = encode(text, { ecc: 'M', border: 4 });
  const scale = 5;
  const canvas = h('canvas', { role: 'img', 'aria-label': `QR code for ${text}`, class: 'qr' });
  canvas.width = canvas.height = qr.size * scale;
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#000';
  qr.data.forEach((row, y) => row.forEach((dark, x) => dark && ctx.fillRect(x * scale, y * scale, scale, scale)));
  return canvas;
}

/** How people connect: each LAN URL as a link and a QR code for phones. */
export function connectList(urls: string[]): HTMLElement {
  const list = h('ul', { class: 'connect-list' });
  for (const url of urls) {
    const item = h('li', {}, externalLink(h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, url)));
    list.append(item);
    qrCanvas(url).then(
      (c) => item.append(c),
      () => item.append(h('small', { class: 'hint' }, ' (QR code unavailable)')),
    );
  }
  return h(
    'div',
    { class: 'connect' },
    h('p', {}, 'People on this network open one of these addresses in a browser, or enter it as the server URL in the Zulip app (desktop or phone: scan the code).'),
    list,
  );
}
