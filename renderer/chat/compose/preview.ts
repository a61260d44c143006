/** The compose box's preview (the server renders the text) and back; Alt+P moves the keyboard with it. */
import { useRef, useState } from 'preact/hooks';
import { post } from '../store/api.js';

/**
 * `preview`: the rendered HTML while shown, else null. `box` is the text box, whose caret is kept
 * while the preview shows; `caretWanted` is where compose puts the caret next.
 */
export function usePreview(text: string, box: { current: HTMLTextAreaElement | null }, caretWanted: { current: number | null }, onError: (text: string) => void) {
  const [preview, setPreview] = useState<string | null>(null);
  const previewBox = useRef<HTMLDivElement>(null);
  const caretKept = useRef<number | null>(null);

  /** The preview and back; with `focus` (Alt+P) the keyboard goes to what is shown next. */
  async function togglePreview(focus = false) {
    if (preview !== null) {
      setPreview(null);
      if (focus) caretWanted.current = caretKept.current ?? text.length;
      return;
    }
    caretKept.current = box.current?.selectionStart ?? null;
    try {
      const res = await post<{ rendered: string }>('/messages/render', { content: text || ' ' });
      setPreview(res.rendered);
      if (focus) setTimeout(() => previewBox.current?.focus());
    } catch (err) {
      onError((err as Error).message);
    }
  }

  return { preview, setPreview, previewBox, togglePreview };
}
