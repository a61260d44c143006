/** Over the compose box while X's new direct message is written: the conversation's draft is kept, and the way back. */
export function ElsewhereNote({ onBack }: { onBack: () => void }) {
  return (
    <p class="compose-elsewhere">
      A new direct message. This conversation’s draft is kept.
      <button type="button" class="small" onClick={onBack}>
        Back to this conversation
      </button>
    </p>
  );
}
