/**
 * What a server read or built once to hand out (`app.staticFiles`): the admin UI's files
 * (server/views/admin-static.ts), the chat client bundle (./web-bundle.ts), the emoji data
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

/** The chat client bundle as ./web-bundle.ts builds it. */
export interface WebBundle {
  /** The hashed file names, as the page links them. */
  script: string;
  style: string;
  assets: Map<string, StaticAsset>;
}

export interface StaticFiles {
  /** The file names in renderer/, read on the first admin UI request. */
  adminNames: Promise<Set<string>> | null;
  /** Admin UI files already read or compiled, by name (`vendor/...` for package files). */
  adminAssets: Map<string, Promise<StaticAsset>>;
  /** The chat client bundle; null until first asked for, and again after a failed build. */
  chatBundle: Promise<WebBundle> | null;
  /** The serialised emoji data and its ETag. */
  emojiData: { body: string; etag: string } | null;
  /** The help center's pages, rendered (./help-pages.ts), by name. */
  helpPages: Map<string, Promise<HelpPage>>;
}

export const newStaticFiles = (): StaticFiles => ({ adminNames: null, adminAssets: new Map(), chatBundle: null, emojiData: null, helpPages: new Map() });
