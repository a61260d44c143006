/**
 * What a server read or built once to hand out (`app.staticFiles`): the web app's bundle (./web-bundle.ts), the emoji data
 * (server/views/emoji-data.ts), and the help center's pages (./help-pages.ts). Filled on first
 * request; none of it changes while the server runs.
 */
/** A help center page: its name (the file without `.md`), its first heading and its HTML. */
export interface HelpPage {
  name: string;
  title: string;
  html: string;
}

export interface StaticAsset {
  body: Buffer;
  type: string;
}

/** The web app's pages (server/lib/runtime/web-bundle.ts PAGE_ENTRIES). */
export type PageName = 'chat' | 'setup' | 'join';

export interface WebBundle {
  /** The chat page's hashed file names, as the page links them (`pages.chat`). */
  script: string;
  style: string;
  /** Each page's hashed script and stylesheet. */
  pages: Record<PageName, { script: string; style: string }>;
  assets: Map<string, StaticAsset>;
}

export interface StaticFiles {
  /** The web app's bundle (every page's); null until first asked for, and again after a failed build. */
  chatBundle: Promise<WebBundle> | null;
  /** The serialised emoji data and its ETag. */
  emojiData: { body: string; etag: string } | null;
  /** The help center's pages, rendered (./help-pages.ts), by name. */
  helpPages: Map<string, Promise<HelpPage>>;
}

export const newStaticFiles = (): StaticFiles => ({ chatBundle: null, emojiData: null, helpPages: new Map() });
