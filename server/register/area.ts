import type { App } from '../context.js';
import type { StateSection } from '../events/state.js';

/**
 * One area of the server's state as clients follow it: its `POST /register` sections (in the
 * order they fill the answer) and, when its events need per-queue shaping, the function that
 * registers its queue filters on `app.events` (createApp calls it once). Each module in
 * server/register/ is one area; server/register/index.ts lists them.
 */
export interface StateArea {
  sections: readonly StateSection[];
  filters?: (app: App) => void;
}
