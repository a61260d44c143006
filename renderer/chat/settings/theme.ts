/**
 * Display settings applied to the page: `color_scheme` (1 automatic, 2 dark, 3 light) as a
 * `data-theme` attribute on <html> that the stylesheet's light and dark overrides key on,
 * and `web_font_size_px` / `web_line_height_percent` as CSS variables. The last theme is
 * remembered in this browser so a reload does not flash the other one before register answers.
 */
import { effect } from '@preact/signals';
import { store } from '../store/state.js';

const KEY = 'hearth.theme';
const THEMES: Record<number, string> = { 2: 'dark', 3: 'light' };

function applyTheme(theme: string | undefined): void {
  const root = document.documentElement;
  if (theme) root.dataset.theme = theme;
  else delete root.dataset.theme;
}

/**
 * Applies the remembered theme at once, then the person's display settings whenever they change
 * (main.tsx, before the first render); returns the disposer.
 */
export function watchTheme(): () => void {
  try {
    applyTheme(localStorage.getItem(KEY) ?? undefined);
  } catch {
    /* storage blocked */
  }
  return effect(() => {
    if (!store.ready.value) return;
    const s = store.userSettings.value;
    const theme = THEMES[Number(s.color_scheme)];
    applyTheme(theme);
    try {
      if (theme) localStorage.setItem(KEY, theme);
      else localStorage.removeItem(KEY);
    } catch {
      /* storage blocked */
    }
    const style = document.documentElement.style;
    const size = Number(s.web_font_size_px);
    const height = Number(s.web_line_height_percent);
    if (size >= 12 && size <= 20) style.setProperty('--font-size', `${size}px`);
    else style.removeProperty('--font-size');
    if (height >= 100 && height <= 200) style.setProperty('--line-height', String(height / 100));
    else style.removeProperty('--line-height');
  });
}

/** Zulip's information-density presets: the font size and line spacing each one sets. */
export const DENSITY = { compact: { web_font_size_px: 14, web_line_height_percent: 122 }, normal: { web_font_size_px: 16, web_line_height_percent: 140 } };
