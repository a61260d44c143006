/**
 * The web app's one DOMPurify set-up (`chat/html.ts` calls it with the DOMPurify it bundles, for
 * messages, descriptions and the sign-in page's organization description). Server HTML goes into a
 * page only through here, even though the server sanitises too: no `style` attribute (the CSP
 * refuses inline style), nothing scriptable, and links out open in a new tab without the opener
 * (links into the page, where the page says which those are, in this one).
 */
import type { Config, DOMPurify } from 'dompurify';

const TAG = /<[a-zA-Z][^>]*>/g;
const INLINE_ATTR = /\s+(?:style|on[a-z]+)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+)/gi;

/**
 * Drops `style` and `on*` attributes inside tags before any parser sees them: Chromium reports
 * each one against the CSP as soon as HTML is parsed (even in an inert document), which would
 * log console errors. Not the sanitizer (DOMPurify is); what this misses, DOMPurify removes.
 */
export const withoutInlineAttributes = (html: string) => html.replace(TAG, (tag) => tag.replace(INLINE_ATTR, ''));

/** What a page adds to the common set-up. */
export interface SanitizerSetup {
  /** DOMPurify's settings beyond the common ones (`style` attributes are always forbidden). */
  config?: Config;
  /** What the HTML goes through before DOMPurify parses it (default: `withoutInlineAttributes`). */
  prepare?: (html: string) => string;
  /** A link into this page: the href it keeps (opened in this tab), or null for a link out. */
  inAppHref?: (href: string) => string | null;
  /** The page's own DOMPurify hooks, installed after the common ones. */
  hooks?: ((purify: DOMPurify) => void)[];
}

export interface Sanitizer {
  toHtml(html: string): string;
}

/**
 * Sets `purify` up for server HTML and returns its sanitiser. Its hooks are installed afresh
 * (any earlier ones removed), so setting the same DOMPurify up again changes nothing.
 */
export function createSanitizer(purify: DOMPurify, setup: SanitizerSetup = {}): Sanitizer {
  purify.removeAllHooks();
  purify.addHook('afterSanitizeAttributes', (node) => {
    const href = node.tagName === 'A' ? node.getAttribute('href') : null;
    if (!href) return;
    const inApp = setup.inAppHref?.(href) ?? null;
    if (inApp) {
      node.setAttribute('href', inApp);
      node.removeAttribute('target');
    } else {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  for (const install of setup.hooks ?? []) install(purify);
  const config: Config = { ...setup.config, FORBID_ATTR: ['style', ...(setup.config?.FORBID_ATTR ?? [])] };
  const prepare = setup.prepare ?? withoutInlineAttributes;
  return {
    toHtml: (html) => purify.sanitize(prepare(html), { ...config, RETURN_DOM: false, RETURN_DOM_FRAGMENT: false }) as string,
  };
}
