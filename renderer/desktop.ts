/**
 * What the Electron window's preload offers (`window.hearth`: server/protocol/desktop-bridge.ts,
 * which main/preload.cts satisfies); absent in a browser, where every feature here falls back to
 * plain web behaviour.
 */
import type { DesktopBridge } from '../server/protocol/desktop-bridge.js';

export type { DesktopBridge };

export const desktop = (): DesktopBridge | null =>
  ((window as unknown as { hearth?: DesktopBridge }).hearth ?? null);
