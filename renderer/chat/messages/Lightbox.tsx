/**
 * An image from a message, large, in a modal dialog: Escape, the Close button or a click
 * beside the image closes it (focus returns to the image's link); "Open original" opens the
 * file in a new tab.
 */
import { Modal } from '../ui/Dialog.js';
import { close } from './message-actions.js';

export function Lightbox({ src, title }: { src: string; title: string }) {
  return (
    <Modal title={title || 'Image'} onClose={() => close()} class="lightbox" wide>
      <div class="lightbox-body" onClick={(e) => e.target === e.currentTarget && close()}>
        <img src={src} alt={title} />
      </div>
      <div class="dialog-actions">
        <a class="button" href={src} target="_blank" rel="noopener noreferrer">
          Open original
        </a>
        <button type="button" class="primary" onClick={() => close()}>
          Close
        </button>
      </div>
    </Modal>
  );
}

/** The image link a click in a message's content landed on (an inline preview), if any. */
export function imageLinkOf(target: EventTarget | null): HTMLAnchorElement | null {
  const a = (target as Element | null)?.closest?.('.message_inline_image a');
  return a instanceof HTMLAnchorElement && a.querySelector('img') ? a : null;
}
